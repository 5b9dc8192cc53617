import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../lib/format-duration';

/** Time since the meeting went live, by the server's start time: the same for everyone, and across reloads. */
export function MeetingTimer({ startedAt }: { startedAt: number | null | undefined }) {
  const { t } = useTranslation('room');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (!startedAt) return null;
  return (
    <span role="timer" aria-label={t('call.elapsed')} className="font-mono text-slate-300 tabular-nums" dir="ltr">
      {formatDuration(now / 1000 - startedAt)}
    </span>
  );
}
