import { ClockIcon, InboxIcon, TvIcon, UsersIcon, VideoIcon } from 'lucide-react';
import { adminCalls, meetingRoomPath } from '@meetcast/contracts';
import type { ComponentType, ReactNode, SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/spinner';
import { useAdminQuery } from './admin-api';
import { AuditLogTable } from './audit-log-table';
import { useFormat } from './format';
import { Badge, PersonCell } from './parts';
import { WeekChart } from './week-chart';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

function Stat({
  icon: Icon,
  label,
  value,
  note,
  to,
}: {
  icon: Icon;
  label: string;
  value: string;
  note?: ReactNode;
  to: string;
}) {
  return (
    <li>
      <Link
        to={to}
        className="flex h-full items-start gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-primary-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-primary-500/60"
      >
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-primary-50 text-primary-700 dark:bg-primary-500/15 dark:text-primary-300">
          <Icon className="size-5" />
        </span>
        <span className="min-w-0">
          <span className="block text-sm text-slate-600 dark:text-slate-400">{label}</span>
          <span className="block text-2xl font-bold text-slate-900 dark:text-white">{value}</span>
          {note && <span className="mt-0.5 block text-xs text-slate-600 dark:text-slate-400">{note}</span>}
        </span>
      </Link>
    </li>
  );
}

/** /admin and /admin/dashboard: the installation at a glance, live meetings and the audit log. */
export default function AdminDashboardPage() {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const { data, error } = useAdminQuery(adminCalls.dashboard, {});
  const dashboard = data?.data.data;

  return (
    <section className="space-y-8">
      <PageHeader title={t('dashboard.title')} description={t('dashboard.description')} />
      {!dashboard ? (
        error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error.message}
          </p>
        ) : (
          <PageSpinner label={t('table.loading')} />
        )
      ) : (
        <>
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label={t('dashboard.figures')}>
            <Stat
              icon={UsersIcon}
              to="/admin/users"
              label={t('dashboard.users')}
              value={format.number(dashboard.users.total)}
              note={t('dashboard.new_this_week', { total: format.number(dashboard.users.new_this_week) })}
            />
            <Stat
              icon={VideoIcon}
              to="/admin/meetings"
              label={t('dashboard.scheduled')}
              value={format.number(dashboard.meetings.scheduled)}
              note={t('dashboard.live_now', { total: format.number(dashboard.meetings.live_now) })}
            />
            <Stat
              icon={ClockIcon}
              to="/admin/meetings"
              label={t('dashboard.minutes')}
              value={format.number(dashboard.meetings.minutes_this_month)}
              note={t('dashboard.minutes_note')}
            />
            <Stat
              icon={TvIcon}
              to="/admin/channels"
              label={t('dashboard.channels')}
              value={format.number(dashboard.channels.total)}
              note={t('dashboard.hidden', { total: format.number(dashboard.channels.hidden) })}
            />
            <Stat
              icon={InboxIcon}
              to="/admin/contacts"
              label={t('dashboard.waiting')}
              value={format.number(dashboard.contact_messages.waiting)}
              note={t('dashboard.waiting_note')}
            />
          </ul>

          <div className="grid gap-4 lg:grid-cols-2">
            <WeekChart
              title={t('dashboard.signups_chart')}
              weeks={dashboard.signups_per_week}
              colorClass="fill-primary-500"
            />
            <WeekChart
              title={t('dashboard.meetings_chart')}
              weeks={dashboard.meetings_per_week}
              colorClass="fill-sky-500"
            />
          </div>

          <section aria-labelledby="live-heading" className="space-y-3">
            <h2 id="live-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
              {t('dashboard.live_meetings')}
            </h2>
            {dashboard.live_meetings.length === 0 ? (
              <p className="rounded-2xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
                {t('dashboard.no_live')}
              </p>
            ) : (
              <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
                {dashboard.live_meetings.map((meeting) => (
                  <li key={meeting.id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-3">
                    <span className="min-w-0">
                      <span className="block font-medium text-slate-900 dark:text-white">{meeting.name}</span>
                      <span className="block text-xs text-slate-600 dark:text-slate-400">
                        {meeting.started_at
                          ? t('dashboard.started', { time: format.dateTime(meeting.started_at) })
                          : meetingRoomPath(meeting)}
                      </span>
                    </span>
                    <PersonCell name={meeting.host.username} email={meeting.host.email} />
                    <Badge tone="red">
                      {t('dashboard.participants', { total: format.number(meeting.participants) })}
                    </Badge>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
      <AuditLogTable />
    </section>
  );
}
