import { ClockIcon, TimerIcon } from 'lucide-react';
import type { Broadcast } from '@meetcast/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDuration } from '../../lib/format-duration';
import { broadcastDuration } from './broadcast-duration';

/** How long a past broadcast was on air, as a clock reading with its name for screen readers. */
function Duration({ seconds }: { seconds: number | undefined }) {
  const { t } = useTranslation('channels');
  if (seconds === undefined) return null;
  const time = formatDuration(seconds);
  return (
    <span className="flex items-center gap-1" data-testid="broadcast-duration">
      <TimerIcon className="size-3.5" aria-hidden="true" />
      <span className="sr-only">{t('lists.duration', { time })}</span>
      <time aria-hidden="true" dateTime={`PT${seconds}S`} className="tabular-nums">
        <bdi dir="ltr">{time}</bdi>
      </time>
    </span>
  );
}

/** Upcoming or past broadcasts of a channel, each linking to its page. */
export function BroadcastList({
  title,
  broadcasts,
  empty,
  linkBase,
  renderActions,
  renderDetails,
}: {
  title: string;
  broadcasts: Broadcast[];
  empty: string;
  /** `/channel` for the public pages, `/channels` inside the app. */
  linkBase: string;
  /** What the owner may do with each broadcast (My Channel: Go live). */
  renderActions?: (broadcast: Broadcast) => ReactNode;
  /** More about each broadcast, under its time (My Channel: its go-live plan). */
  renderDetails?: (broadcast: Broadcast) => ReactNode;
}) {
  const { t, i18n } = useTranslation('channels');
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{title}</h2>
      {broadcasts.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">{empty}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
          {broadcasts.map((broadcast) => (
            <li key={broadcast.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <Link
                  to={`${linkBase}/${broadcast.url_slug}`}
                  className="font-medium text-slate-900 hover:underline dark:text-white"
                >
                  {broadcast.name}
                </Link>
                <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600 dark:text-slate-400">
                  <span className="flex items-center gap-1">
                    <ClockIcon className="size-3.5" aria-hidden="true" />
                    <time dateTime={new Date(broadcast.start_time * 1000).toISOString()}>
                      {format.format(broadcast.start_time * 1000)}
                    </time>
                  </span>
                  <Duration seconds={broadcastDuration(broadcast)} />
                </p>
                {renderDetails?.(broadcast)}
              </div>
              <span className="flex flex-wrap items-center gap-3">
                <span className="text-xs font-semibold uppercase text-slate-500 dark:text-slate-400">
                  {t(`states.${broadcast.public_state}`)}
                </span>
                {renderActions?.(broadcast)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
