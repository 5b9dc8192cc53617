import { adminCalls, type AdminAuditEntry } from '@meetcast/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminList } from './admin-api';
import { AdminTable } from './admin-table';
import { useFormat } from './format';
import { ExportButton } from './parts';
import { useTableState } from './use-table-state';

/** What the details of an entry say, in one line: names, addresses, old and new values. */
function describe(details: AdminAuditEntry['details']) {
  if (!details) return '';
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' · ');
}

/** The read-only audit log of administrator actions: who, what, on which record, when, from where. */
export function AuditLogTable() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const controls = useTableState({ perPage: 10 });
  const list = useAdminList(adminCalls.getAuditLog, controls);

  const columns = useMemo<ColumnDef<AdminAuditEntry, unknown>[]>(
    () => [
      {
        id: 'created_at',
        enableSorting: false,
        header: t('audit.columns.when'),
        cell: ({ row }) => <span className="whitespace-nowrap">{format.dateTime(row.original.created_at)}</span>,
      },
      {
        id: 'actor',
        enableSorting: false,
        header: t('audit.columns.who'),
        cell: ({ row }) => row.original.actor?.username ?? t('audit.deleted_user'),
      },
      {
        id: 'action',
        enableSorting: false,
        header: t('audit.columns.what'),
        cell: ({ row }) =>
          t(`audit.actions.${row.original.action.replace('.', '_')}`, { defaultValue: row.original.action }),
      },
      {
        id: 'target',
        enableSorting: false,
        header: t('audit.columns.target'),
        cell: ({ row }) => (
          <span className="block max-w-sm">
            <span className="block">
              {t(`audit.targets.${row.original.target_type}`, { defaultValue: row.original.target_type })}
              {row.original.target_id ? ` #${row.original.target_id}` : ''}
            </span>
            <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
              {describe(row.original.details)}
            </span>
          </span>
        ),
      },
      {
        id: 'ip_address',
        enableSorting: false,
        header: t('audit.columns.address'),
        cell: ({ row }) => <code className="text-xs">{row.original.ip_address ?? ''}</code>,
      },
    ],
    [t, format],
  );

  return (
    <section aria-labelledby="audit-heading" className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="audit-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
            {t('audit.title')}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('audit.description')}</p>
        </div>
        <ExportButton table="audit_log" fields={{ search: controls.fields.search }} />
      </div>
      <AdminTable
        label={t('audit.title')}
        searchLabel={t('audit.search')}
        columns={columns}
        list={list}
        controls={controls}
        getRowId={(entry) => String(entry.id)}
      />
    </section>
  );
}
