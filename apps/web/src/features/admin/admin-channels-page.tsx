import { adminCalls, type AdminChannel } from '@meetcast/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminAction, useAdminList } from './admin-api';
import { AdminTablePage } from './admin-table-page';
import { FilterSelect } from './admin-table';
import { useFormat } from './format';
import { Badge, PersonCell, RowButton, useConfirmation } from './parts';
import { useTableState } from './use-table-state';

export default function AdminChannelsPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const controls = useTableState();
  const list = useAdminList(adminCalls.getChannels, controls);
  const confirmation = useConfirmation();
  const ask = confirmation.ask;
  const hideChannel = useAdminAction(adminCalls.hideChannel).mutateAsync;
  const unhideChannel = useAdminAction(adminCalls.unhideChannel).mutateAsync;
  const deleteChannel = useAdminAction(adminCalls.deleteChannel).mutateAsync;

  const columns = useMemo<ColumnDef<AdminChannel, unknown>[]>(() => {
    const askHide = (channel: AdminChannel) =>
      ask({
        title: t(channel.is_hidden ? 'channels.confirm.unhide_title' : 'channels.confirm.hide_title', {
          name: channel.name,
        }),
        text: t(channel.is_hidden ? 'channels.confirm.unhide_text' : 'channels.confirm.hide_text'),
        confirmLabel: t(channel.is_hidden ? 'channels.unhide' : 'channels.hide'),
        onConfirm: () => (channel.is_hidden ? unhideChannel : hideChannel)({ id: channel.id }),
      });
    const askDelete = (channel: AdminChannel) =>
      ask({
        title: t('channels.confirm.delete_title', { name: channel.name }),
        text: t('channels.confirm.delete_text'),
        confirmLabel: t('actions.delete'),
        isDanger: true,
        onConfirm: () => deleteChannel({ id: channel.id }),
      });
    return [
      {
        id: 'name',
        accessorFn: (channel) => channel.name,
        header: t('channels.columns.channel'),
        cell: ({ row }) => (
          <span className="block">
            <span className="block font-medium text-slate-900 dark:text-white">{row.original.name}</span>
            <span className="block text-xs text-slate-600 dark:text-slate-400">/{row.original.slug}</span>
          </span>
        ),
      },
      {
        id: 'owner',
        accessorFn: (channel) => channel.owner.username,
        header: t('channels.columns.owner'),
        cell: ({ row }) => <PersonCell name={row.original.owner.username} email={row.original.owner.email} />,
      },
      {
        id: 'visibility',
        enableSorting: false,
        header: t('channels.columns.visibility'),
        cell: ({ row }) => (
          <span className="flex flex-wrap gap-1">
            <Badge tone="slate">{t(`channels.visibility.${row.original.visibility}`)}</Badge>
            {row.original.is_hidden ? (
              <Badge tone="amber">{t('channels.hidden')}</Badge>
            ) : (
              <Badge tone="green">{t('channels.shown')}</Badge>
            )}
          </span>
        ),
      },
      {
        id: 'followers',
        accessorFn: (channel) => channel.followers,
        header: t('channels.columns.followers'),
        cell: ({ row }) => format.number(row.original.followers),
      },
      {
        id: 'created_at',
        accessorFn: (channel) => channel.created_at,
        header: t('columns.created'),
        cell: ({ row }) => format.date(row.original.created_at),
      },
      {
        id: 'actions',
        enableSorting: false,
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        cell: ({ row }) => (
          <span className="flex justify-end gap-1">
            <RowButton onClick={() => askHide(row.original)}>
              {t(row.original.is_hidden ? 'channels.unhide' : 'channels.hide')}
            </RowButton>
            <RowButton
              isDanger
              onClick={() => askDelete(row.original)}
              label={t('actions.delete_named', { name: row.original.name })}
            >
              {t('actions.delete')}
            </RowButton>
          </span>
        ),
      },
    ];
  }, [t, format, ask, hideChannel, unhideChannel, deleteChannel]);

  return (
    <AdminTablePage
      section="channels"
      exportTable="channels"
      columns={columns}
      list={list}
      controls={controls}
      getRowId={(channel) => String(channel.id)}
      toolbar={
        <FilterSelect
          label={t('channels.columns.visibility')}
          value={controls.state.filters.hidden ?? ''}
          onChange={(value) => controls.setFilter('hidden', value)}
          options={[
            { value: '', label: t('filters.all') },
            { value: 'no', label: t('channels.shown') },
            { value: 'yes', label: t('channels.hidden') },
          ]}
        />
      }
    >
      {confirmation.dialog}
    </AdminTablePage>
  );
}
