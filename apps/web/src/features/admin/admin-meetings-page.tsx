import { adminCalls, type AdminMeeting, meetingRoomPath, PASSWORD_FLAG, PRIVACY } from '@meetcast/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminAction, useAdminList } from './admin-api';
import { AdminTablePage } from './admin-table-page';
import { FilterSelect } from './admin-table';
import { useFormat } from './format';
import { Badge, PersonCell, RowButton, STATUS_TONES, useConfirmation } from './parts';
import { useTableState } from './use-table-state';

const STATES = ['scheduled', 'live', 'ended', 'cancelled'] as const;

export default function AdminMeetingsPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const controls = useTableState();
  const list = useAdminList(adminCalls.getMeetings, controls);
  const confirmation = useConfirmation();
  const ask = confirmation.ask;
  const endMeeting = useAdminAction(adminCalls.endMeeting).mutateAsync;
  const deleteMeeting = useAdminAction(adminCalls.deleteMeeting).mutateAsync;

  const columns = useMemo<ColumnDef<AdminMeeting, unknown>[]>(() => {
    const askEnd = (meeting: AdminMeeting) =>
      ask({
        title: t('meetings.confirm.end_title', { name: meeting.name }),
        text: t('meetings.confirm.end_text', { total: format.number(meeting.participants) }),
        confirmLabel: t('meetings.end'),
        isDanger: true,
        onConfirm: () => endMeeting({ id: meeting.id }),
      });
    const askDelete = (meeting: AdminMeeting) =>
      ask({
        title: t('meetings.confirm.delete_title', { name: meeting.name }),
        text: t('meetings.confirm.delete_text'),
        confirmLabel: t('actions.delete'),
        isDanger: true,
        onConfirm: () => deleteMeeting({ id: meeting.id }),
      });
    return [
      {
        id: 'name',
        accessorFn: (meeting) => meeting.name,
        header: t('meetings.columns.meeting'),
        cell: ({ row }) => (
          <span className="block">
            <span className="block font-medium text-slate-900 dark:text-white">{row.original.name}</span>
            <span className="block text-xs text-slate-600 dark:text-slate-400">
              {meetingRoomPath({ url_slug: row.original.url_slug })}
            </span>
          </span>
        ),
      },
      {
        id: 'host',
        accessorFn: (meeting) => meeting.host.username,
        header: t('meetings.columns.host'),
        cell: ({ row }) => <PersonCell name={row.original.host.username} email={row.original.host.email} />,
      },
      {
        id: 'start_time',
        accessorFn: (meeting) => meeting.start_time,
        header: t('meetings.columns.schedule'),
        cell: ({ row }) => (
          <span className="block whitespace-nowrap">
            <span className="block">{format.dateTime(row.original.start_time)}</span>
            <span className="block text-xs text-slate-600 dark:text-slate-400">
              {row.original.is_schedule
                ? t(`repeat.${row.original.repeat}`, { defaultValue: t('repeat.0') })
                : t('meetings.instant')}
            </span>
          </span>
        ),
      },
      {
        id: 'privacy',
        enableSorting: false,
        header: t('meetings.columns.privacy'),
        cell: ({ row }) => (
          <span className="flex flex-wrap gap-1">
            <Badge tone={row.original.is_private === PRIVACY.private ? 'amber' : 'green'}>
              {t(row.original.is_private === PRIVACY.private ? 'privacy.private' : 'privacy.public')}
            </Badge>
            {row.original.is_private === PRIVACY.private && row.original.is_password === PASSWORD_FLAG.yes && (
              <Badge tone="slate">{t('privacy.password')}</Badge>
            )}
          </span>
        ),
      },
      {
        id: 'state',
        accessorFn: (meeting) => meeting.state,
        header: t('columns.status'),
        cell: ({ row }) => (
          <Badge tone={STATUS_TONES[row.original.state] ?? 'slate'}>{t(`meeting_state.${row.original.state}`)}</Badge>
        ),
      },
      {
        id: 'participants',
        enableSorting: false,
        header: t('meetings.columns.participants'),
        cell: ({ row }) => format.number(row.original.participants),
      },
      {
        id: 'actions',
        enableSorting: false,
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        cell: ({ row }) => (
          <span className="flex justify-end gap-1">
            {(row.original.state === 'live' || row.original.participants > 0) && (
              <RowButton
                isDanger
                onClick={() => askEnd(row.original)}
                label={t('meetings.end_named', { name: row.original.name })}
              >
                {t('meetings.end')}
              </RowButton>
            )}
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
  }, [t, format, ask, endMeeting, deleteMeeting]);

  return (
    <AdminTablePage
      section="meetings"
      exportTable="meetings"
      columns={columns}
      list={list}
      controls={controls}
      getRowId={(meeting) => String(meeting.id)}
      toolbar={
        <FilterSelect
          label={t('columns.status')}
          value={controls.state.filters.state ?? ''}
          onChange={(value) => controls.setFilter('state', value)}
          options={[
            { value: '', label: t('filters.all') },
            ...STATES.map((state) => ({ value: state, label: t(`meeting_state.${state}`) })),
          ]}
        />
      }
    >
      {confirmation.dialog}
    </AdminTablePage>
  );
}
