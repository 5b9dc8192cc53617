import type { AdminExportTable, CallName } from '@meetcast/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import i18n from '../../i18n/i18n';
import { API_BASE, ApiError, api, type WebCallInput } from '../../lib/api';
import { readSessionToken } from '../../lib/session-cookie';
import type { TableControls } from './use-table-state';

/** Every admin query lives under this key, so one invalidation refreshes the area after a change. */
export const ADMIN_KEY = ['admin'] as const;

/** A read call of the admin area (tables, dashboard, events), typed by its entry in the table of calls. */
export function useAdminQuery<Name extends CallName>(call: Name, fields: WebCallInput<Name>, isEnabled = true) {
  return useQuery({
    enabled: isEnabled,
    queryKey: [...ADMIN_KEY, call, fields],
    queryFn: ({ signal }) => api.call(call, fields, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

/**
 * The rows of a paged admin table. Its controls name the column to sort by and the filters by the
 * columns of the table, which are the server's names; the server answers 400 to any other.
 */
export function useAdminList<Name extends CallName>(call: Name, controls: TableControls) {
  return useAdminQuery(call, controls.fields as WebCallInput<Name>);
}

/** A change: on success the server's message is shown and every admin table is read again. */
export function useAdminAction<Name extends CallName>(call: Name) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: WebCallInput<Name>) => api.call(call, fields),
    onSuccess: async (body) => {
      toast.success(body.message);
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    },
  });
}

/** The filters of an admin table, as its export sends them. */
export type ExportFilters = Record<string, string | number | undefined>;

/** admin-export.php answers text/csv: the file is saved under the name the server gives. */
export async function downloadExport(table: AdminExportTable, fields: ExportFilters = {}) {
  const body = new URLSearchParams();
  const all = { ...fields, table, token: readSessionToken(), lng: i18n.resolvedLanguage };
  for (const [key, value] of Object.entries(all)) {
    if (value !== undefined && value !== null && value !== '') body.append(key, String(value));
  }
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/admin-export.php`, { method: 'POST', body, credentials: 'same-origin' });
  } catch {
    throw new ApiError(i18n.t('common:errors.network'), 0);
  }
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(
      answer?.message ?? i18n.t('common:errors.unexpected', { status: response.status }),
      response.status,
    );
  }
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `meetcast-${table}.csv`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
