import { CalendarClockIcon } from 'lucide-react';
import type { Broadcast } from '@meetcast/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Countdown } from './channel-stage';

/**
 * The channel's next scheduled broadcast while something else is on the stage (a live broadcast, a
 * replay): its name, when, a countdown and "notify me", under the player.
 */
export function NextBroadcast({
  broadcast,
  linkBase,
  action,
}: {
  broadcast: Broadcast;
  linkBase: string;
  action?: ReactNode;
}) {
  const { t, i18n } = useTranslation('channels');
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'full', timeStyle: 'short' });
  return (
    <section
      aria-labelledby="next-broadcast-title"
      data-testid="next-broadcast"
      className="flex flex-wrap items-center justify-between gap-4 rounded-2xl bg-gradient-to-r from-slate-800 to-primary-900 p-6 text-white shadow-sm"
    >
      <div className="min-w-0 space-y-1">
        <h2 id="next-broadcast-title" className="text-xs font-semibold uppercase tracking-wide opacity-90">
          {t('next.title')}
        </h2>
        <Link to={`${linkBase}/${broadcast.url_slug}`} dir="auto" className="block text-xl font-bold hover:underline">
          {broadcast.name}
        </Link>
        <p className="flex items-center gap-1 text-sm opacity-90">
          <CalendarClockIcon className="size-4" aria-hidden="true" />
          <time dateTime={new Date(broadcast.start_time * 1000).toISOString()}>
            {format.format(broadcast.start_time * 1000)}
          </time>
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <Countdown target={broadcast.start_time} />
        {action}
      </div>
    </section>
  );
}
