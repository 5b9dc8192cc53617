import { adminCalls, CONTACT_MESSAGE_STATUSES, type AdminContactMessage } from '@meetcast/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminList } from './admin-api';
import { ContactMessageDialog } from './contact-message-dialog';
import { AdminTablePage } from './admin-table-page';
import { FilterSelect } from './admin-table';
import { useFormat } from './format';
import { Badge, PersonCell, RowButton, STATUS_TONES, useConfirmation } from './parts';
import { useTableState } from './use-table-state';

export default function AdminContactsPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const controls = useTableState();
  const list = useAdminList(adminCalls.getContactMessages, controls);
  const confirmation = useConfirmation();
  const [opened, setOpened] = useState<AdminContactMessage | null>(null);
  const rows = list.data?.data.data ?? [];
  // The freshest copy while it is listed; the opened one when a filter no longer shows it.
  const open = rows.find((message) => message.id === opened?.id) ?? opened;

  const columns = useMemo<ColumnDef<AdminContactMessage, unknown>[]>(
    () => [
      {
        id: 'name',
        accessorFn: (message) => message.name,
        header: t('contacts.columns.from'),
        cell: ({ row }) => <PersonCell name={row.original.name} email={row.original.email} />,
      },
      {
        id: 'subject',
        accessorFn: (message) => message.subject,
        header: t('contacts.columns.subject'),
        cell: ({ row }) => (
          <span className="block max-w-md">
            <span dir="auto" className="block truncate font-medium text-slate-900 dark:text-white">
              {row.original.subject}
            </span>
            <span dir="auto" className="block truncate text-xs text-slate-600 dark:text-slate-400">
              {row.original.message}
            </span>
          </span>
        ),
      },
      {
        id: 'status',
        accessorFn: (message) => message.status,
        header: t('columns.status'),
        cell: ({ row }) => (
          <Badge tone={STATUS_TONES[row.original.status] ?? 'slate'}>
            {t(`contact_status.${row.original.status}`)}
          </Badge>
        ),
      },
      {
        id: 'created_at',
        accessorFn: (message) => message.created_at,
        header: t('contacts.columns.received'),
        cell: ({ row }) => format.dateTime(row.original.created_at),
      },
      {
        id: 'actions',
        enableSorting: false,
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        cell: ({ row }) => (
          <RowButton
            onClick={() => setOpened(row.original)}
            label={t('contacts.open_named', { subject: row.original.subject })}
          >
            {t('actions.open')}
          </RowButton>
        ),
      },
    ],
    [t, format],
  );

  return (
    <AdminTablePage
      section="contacts"
      exportTable="contact_messages"
      columns={columns}
      list={list}
      controls={controls}
      getRowId={(message) => String(message.id)}
      toolbar={
        <FilterSelect
          label={t('columns.status')}
          value={controls.state.filters.status ?? ''}
          onChange={(value) => controls.setFilter('status', value)}
          options={[
            { value: '', label: t('filters.all') },
            ...CONTACT_MESSAGE_STATUSES.map((status) => ({ value: status, label: t(`contact_status.${status}`) })),
          ]}
        />
      }
    >
      <ContactMessageDialog message={open} onClose={() => setOpened(null)} confirm={confirmation.ask} />
      {confirmation.dialog}
    </AdminTablePage>
  );
}
