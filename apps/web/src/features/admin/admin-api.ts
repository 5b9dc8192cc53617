import { fileCalls, type AdminExportTable, type CallAnswering, type CallDefinition } from '@meetcast/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { api, type WebCallInput } from '../../lib/api';
import type { TableControls } from './use-table-state';

/** Every admin query lives under this key, so one invalidation refreshes the area after a change. */
export const ADMIN_KEY = ['admin'] as const;

/** A read call of the admin area (tables, dashboard, events), typed by its entry in the table of calls. */
export function useAdminQuery<Call extends CallDefinition>(call: Call, fields: WebCallInput<Call>, isEnabled = true) {
  return useQuery({
    enabled: isEnabled,
    queryKey: [...ADMIN_KEY, call.name, fields],
    queryFn: ({ signal }) => api.call(call, fields, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

/**
 * The rows of a paged admin table. Its controls name the column to sort by and the filters by the
 * columns of the table, which are the server's names; the server answers 400 to any other.
 */
export function useAdminList<Call extends CallDefinition>(call: Call, controls: TableControls) {
  return useAdminQuery(call, controls.fields as WebCallInput<Call>);
}

/** A change: on success the server's message is shown and every admin table is read again. */
export function useAdminAction<Call extends CallAnswering<{ message: string }>>(call: Call) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: WebCallInput<Call>) => api.call(call, fields),
    onSuccess: async (body) => {
      toast.success(body.message);
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    },
  });
}

/** The filters of an admin table, as its export sends them. */
export type ExportFilters = Omit<WebCallInput<typeof fileCalls.adminExport>, 'table'>;

/** admin-export.php answers text/csv: the file is saved under the name the server gives. */
export async function downloadExport(table: AdminExportTable, fields: ExportFilters = {}) {
  const { file, filename } = await api.download(fileCalls.adminExport, { ...fields, table });
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename ?? `meetcast-${table}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
