import { adminCalls, ROLE, type AdminUser } from '@meetcast/contracts';
import type { ColumnDef, RowSelectionState } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useCurrentUser } from '../session';
import { useAdminAction, useAdminList } from './admin-api';
import { AdminTablePage } from './admin-table-page';
import { FilterSelect } from './admin-table';
import { useFormat } from './format';
import { Badge, PersonCell, RowButton, STATUS_TONES, useConfirmation } from './parts';
import { UserDetailDialog } from './user-detail-dialog';
import { useTableState } from './use-table-state';

export default function AdminUsersPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const me = useCurrentUser();
  const controls = useTableState();
  const list = useAdminList(adminCalls.getUsers, controls);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [openUserId, setOpenUserId] = useState<number | null>(null);
  const confirmation = useConfirmation();
  const disable = useAdminAction(adminCalls.disableUsers);
  const enable = useAdminAction(adminCalls.enableUsers);
  const remove = useAdminAction(adminCalls.deleteUsers);
  const selectedIds = Object.keys(selection).filter((id) => selection[id]);

  const bulk = (kind: 'disable' | 'enable' | 'delete') => {
    const count = selectedIds.length;
    const action = { disable, enable, delete: remove }[kind];
    confirmation.ask({
      title: t(`users.bulk.${kind}_title`),
      text: t(`users.bulk.${kind}_text`, { total: format.number(count) }),
      confirmLabel: t(`users.bulk.${kind}_confirm`),
      isDanger: kind !== 'enable',
      onConfirm: async () => {
        await action.mutateAsync({ ids: selectedIds.join(',') });
        setSelection({});
      },
    });
  };

  const columns = useMemo<ColumnDef<AdminUser, unknown>[]>(
    () => [
      {
        id: 'username',
        accessorFn: (user) => user.username,
        header: t('users.columns.user'),
        cell: ({ row }) => <PersonCell name={row.original.username} email={row.original.email} />,
      },
      { id: 'id', accessorFn: (user) => user.id, header: t('columns.id'), cell: ({ row }) => row.original.id },
      {
        id: 'role_id',
        accessorFn: (user) => user.role_id,
        header: t('users.columns.role'),
        cell: ({ row }) =>
          row.original.role_id === ROLE.admin ? (
            <Badge tone="violet">{t('roles.admin')}</Badge>
          ) : (
            <Badge tone="slate">{t('roles.user')}</Badge>
          ),
      },
      {
        id: 'status',
        accessorFn: (user) => user.status,
        header: t('columns.status'),
        cell: ({ row }) => (
          <Badge tone={STATUS_TONES[row.original.status] ?? 'slate'}>{t(`user_status.${row.original.status}`)}</Badge>
        ),
      },
      {
        id: 'meetings_count',
        enableSorting: false,
        header: t('users.columns.meetings'),
        cell: ({ row }) => format.number(row.original.meetings_count),
      },
      {
        id: 'created_at',
        accessorFn: (user) => user.created_at,
        header: t('users.columns.joined'),
        cell: ({ row }) => format.date(row.original.created_at),
      },
      {
        id: 'actions',
        enableSorting: false,
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        cell: ({ row }) => (
          <RowButton
            onClick={() => setOpenUserId(row.original.id)}
            label={t('users.view_named', { name: row.original.username })}
          >
            {t('actions.view')}
          </RowButton>
        ),
      },
    ],
    [t, format],
  );

  return (
    <AdminTablePage
      section="users"
      exportTable="users"
      columns={columns}
      list={list}
      controls={controls}
      getRowId={(user) => String(user.id)}
      selection={{ value: selection, onChange: setSelection, label: (user) => user.username }}
      toolbar={
        <>
          <FilterSelect
            label={t('users.columns.role')}
            value={controls.state.filters.role_id ?? ''}
            onChange={(value) => controls.setFilter('role_id', value)}
            options={[
              { value: '', label: t('filters.all') },
              { value: String(ROLE.admin), label: t('roles.admin') },
              { value: String(ROLE.user), label: t('roles.user') },
            ]}
          />
          <FilterSelect
            label={t('columns.status')}
            value={controls.state.filters.status ?? ''}
            onChange={(value) => controls.setFilter('status', value)}
            options={[
              { value: '', label: t('filters.all') },
              ...(['active', 'disabled', 'pending'] as const).map((status) => ({
                value: status,
                label: t(`user_status.${status}`),
              })),
            ]}
          />
        </>
      }
      bulkActions={
        <>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => bulk('disable')}
            disabled={selectedIds.includes(String(me?.id))}
          >
            {t('users.bulk.disable')}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => bulk('enable')}>
            {t('users.bulk.enable')}
          </Button>
          <Button size="sm" variant="danger" onClick={() => bulk('delete')}>
            {t('users.bulk.delete')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSelection({})}>
            {t('table.clear_selection')}
          </Button>
        </>
      }
    >
      <UserDetailDialog userId={openUserId} onClose={() => setOpenUserId(null)} confirm={confirmation.ask} />
      {confirmation.dialog}
    </AdminTablePage>
  );
}
