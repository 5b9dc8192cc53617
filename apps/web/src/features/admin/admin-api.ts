import type { AdminExportTable } from '@meetcast/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import i18n from '../../i18n/i18n';
import { API_BASE, ApiError, apiPost, type Fields } from '../../lib/api';
import { readSessionToken } from '../../lib/session-cookie';

/** Every admin query lives under this key, so one invalidation refreshes the area after a change. */
export const ADMIN_KEY = ['admin'] as const;

/** A read call of the admin area (tables, dashboard, events), typed by its contract schema. */
export function useAdminQuery<S extends z.ZodType>(call: string, fields: Fields, schema: S, isEnabled = true) {
  return useQuery({
    enabled: isEnabled,
    queryKey: [...ADMIN_KEY, call, fields],
    queryFn: ({ signal }) => apiPost(call, fields, { schema, signal }) as Promise<z.output<S>>,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

/** A change: on success the server's message is shown and every admin table is read again. */
export function useAdminAction(call: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: Fields) => apiPost(call, fields),
    onSuccess: async (body) => {
      toast.success(body.message);
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    },
  });
}

/** admin-export.php answers text/csv: the file is saved under the name the server gives. */
export async function downloadExport(table: AdminExportTable, fields: Fields = {}) {
  const body = new URLSearchParams();
  const all: Fields = { ...fields, table, token: readSessionToken(), lng: i18n.resolvedLanguage };
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
