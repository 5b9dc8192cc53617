import { meetingRoomPath, PASSWORD_FLAG, PRIVACY } from '@meetcast/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../session';
import { MeetingActions } from './meeting-actions';
import type { MeetingOccurrence } from './meeting-labels';
import { formatRange, formatTime } from '../../lib/zoned-time';

const BADGE = 'rounded-full px-2 py-0.5 text-xs font-medium';

function Attendance({ item }: { item: MeetingOccurrence }) {
  const { t, i18n } = useTranslation('meetings');
  const zone = useCurrentUser()?.time_zone ?? 'UTC';
  const attendance = item.attendance;
  if (!attendance || attendance.started_at === null) {
    return <p className="text-sm text-slate-600 dark:text-slate-400">{t('card.nobody_joined')}</p>;
  }
  const minutes = Math.max(1, Math.round(attendance.duration_seconds / 60));
  return (
    <div className="text-sm text-slate-700 dark:text-slate-300">
      <p>
        {t('card.ran', {
          start: formatTime(attendance.started_at, zone, i18n.language),
          end:
            attendance.ended_at === null
              ? t('card.still_running')
              : formatTime(attendance.ended_at, zone, i18n.language),
        })}{' '}
        · {t('card.duration', { count: minutes })}
      </p>
      <p className="mt-1">
        {t('card.participants', { count: attendance.participants.length })}:{' '}
        {attendance.participants.map((participant) => participant.name).join(', ')}
      </p>
    </div>
  );
}

/** One occurrence of a meeting in the Upcoming or Recent list. */
export function MeetingCard({ item, isUpcoming }: { item: MeetingOccurrence; isUpcoming: boolean }) {
  const { t, i18n } = useTranslation('meetings');
  const zone = useCurrentUser()?.time_zone ?? 'UTC';
  const [now] = useState(() => Date.now() / 1000);
  const isLive = isUpcoming && item.occurrence_start <= now && item.occurrence_end > now;
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 dir="auto" className="truncate text-base font-semibold text-slate-900 dark:text-white">
            {item.name}
          </h2>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            <time dateTime={new Date(item.occurrence_start * 1000).toISOString()}>
              {formatRange(item.occurrence_start, item.occurrence_end, zone, i18n.language)}
            </time>
          </p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {item.is_host ? t('card.you_host') : t('card.host', { name: item.host_name })} ·{' '}
            {meetingRoomPath({ url_slug: item.url_slug })}
          </p>
        </div>
        <ul className="flex flex-wrap gap-1.5" aria-label={t('card.details')}>
          {isLive && (
            <li className={`${BADGE} bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300`}>
              {t('card.live')}
            </li>
          )}
          {item.state === 'cancelled' && (
            <li className={`${BADGE} bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-200`}>
              {t('card.cancelled')}
            </li>
          )}
          {item.repeat !== 0 && (
            <li className={`${BADGE} bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300`}>
              {t(`repeat.${item.repeat}`)}
            </li>
          )}
          <li className={`${BADGE} bg-sky-100 text-sky-900 dark:bg-sky-500/15 dark:text-sky-300`}>
            {item.is_private === PRIVACY.private ? t('form.private') : t('form.public')}
          </li>
          {item.is_password === PASSWORD_FLAG.yes && (
            <li className={`${BADGE} bg-violet-100 text-violet-900 dark:bg-violet-500/15 dark:text-violet-300`}>
              {t('card.password')}
            </li>
          )}
        </ul>
      </div>
      {item.description && (
        <p className="mt-3 line-clamp-2 text-sm text-slate-600 dark:text-slate-400">{item.description}</p>
      )}
      {!isUpcoming && (
        <div className="mt-3">
          <Attendance item={item} />
        </div>
      )}
      <div className="mt-4">
        <MeetingActions item={item} isUpcoming={isUpcoming} />
      </div>
    </li>
  );
}
