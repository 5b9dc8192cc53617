import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { meetingRoomPath } from '@meetcast/contracts';
import { Spinner } from '../../components/spinner';
import { meetingsApi } from '../meetings';
import { formatRange } from '../../lib/zoned-time';
import { useCurrentUser } from '../session';
import { MeetingsChart } from './meetings-chart';

const PANEL = 'rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900';

/** The dashboard's numbers: next meetings, this week, hours met, contacts, and meetings per week. */
export function DashboardOverview() {
  const { t, i18n } = useTranslation('meetings');
  const zone = useCurrentUser()?.time_zone ?? 'UTC';
  const dashboard = useQuery({ queryKey: ['meetings', 'dashboard'], queryFn: () => meetingsApi.dashboard() });
  if (dashboard.isPending) {
    return (
      <div className="mt-8 flex justify-center">
        <Spinner className="size-6" label={t('loading')} />
      </div>
    );
  }
  if (dashboard.isError)
    return <p className="mt-8 text-sm text-red-700 dark:text-red-300">{dashboard.error.message}</p>;
  const data = dashboard.data.data;
  const stats = [
    { label: t('dashboard.this_week'), value: data.meetings_this_week },
    { label: t('dashboard.hours_met'), value: new Intl.NumberFormat(i18n.language).format(data.hours_met) },
    { label: t('dashboard.contacts'), value: data.contacts_count },
  ];
  return (
    <div className="mt-8 grid gap-4 lg:grid-cols-3">
      <section className={`${PANEL} lg:col-span-3`} aria-labelledby="dashboard-stats">
        <h2 id="dashboard-stats" className="sr-only">
          {t('dashboard.stats')}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-3">
          {stats.map((stat) => (
            <div key={stat.label}>
              <dt className="text-sm text-slate-600 dark:text-slate-400">{stat.label}</dt>
              <dd className="mt-1 text-3xl font-bold text-slate-900 dark:text-white">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className={`${PANEL} lg:col-span-2`} aria-labelledby="dashboard-next">
        <div className="flex items-center justify-between gap-2">
          <h2 id="dashboard-next" className="font-semibold text-slate-900 dark:text-white">
            {t('dashboard.next_title')}
          </h2>
          <Link
            to="/upcoming-mettings"
            className="text-sm font-medium text-primary-700 hover:underline dark:text-primary-300"
          >
            {t('dashboard.see_all')}
          </Link>
        </div>
        {data.next_meetings.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">{t('dashboard.next_empty')}</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
            {data.next_meetings.map((item) => (
              <li key={`${item.id}-${item.occurrence_start}`} className="flex items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p dir="auto" className="truncate font-medium text-slate-900 dark:text-white">
                    {item.name}
                  </p>
                  <p className="text-sm text-slate-600 dark:text-slate-400">
                    {formatRange(item.occurrence_start, item.occurrence_end, zone, i18n.language)}
                  </p>
                </div>
                <Link
                  to={meetingRoomPath(item)}
                  className="inline-flex h-8 shrink-0 items-center rounded-lg bg-primary-600 px-3 text-sm font-semibold text-white hover:bg-primary-700 dark:bg-primary-500 dark:text-slate-950"
                >
                  {t('card.join')}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className={PANEL} aria-labelledby="dashboard-chart">
        <h2 id="dashboard-chart" className="font-semibold text-slate-900 dark:text-white">
          {t('dashboard.chart_title')}
        </h2>
        <p className="mb-3 text-xs text-slate-600 dark:text-slate-400">{t('dashboard.chart_description')}</p>
        <MeetingsChart weeks={data.meetings_per_week} zone={zone} />
      </section>
    </div>
  );
}
