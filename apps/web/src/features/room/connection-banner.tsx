import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';

function minutesAndSeconds(seconds: number) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * Over the call while its connections are down: it says so, counts down the time the server keeps
 * this person's place (the reconnect grace, ADR 032) and offers to rejoin at once. It never leaves
 * the call: the connections come back by themselves, and the seat waits for them.
 */
export function ConnectionBanner({
  graceSeconds,
  hasFailed,
  onRejoin,
}: {
  graceSeconds: number;
  /** Media gave up trying by itself (or the room has none): only a click starts it again. */
  hasFailed: boolean;
  onRejoin: () => void;
}) {
  const { t } = useTranslation('room');
  const [since] = useState(() => Date.now());
  const [now, setNow] = useState(since);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, graceSeconds - Math.floor((now - since) / 1000));
  return (
    <div
      role="status"
      aria-live="assertive"
      className="flex flex-wrap items-center justify-center gap-3 bg-amber-600 px-4 py-2 text-sm"
    >
      {hasFailed ? (
        t('call.connection_lost')
      ) : (
        <>
          <Spinner className="size-4" /> {t('call.reconnecting')}
          {left > 0 && (
            <span data-countdown={left} aria-live="off" className="tabular-nums">
              {t('call.seat_kept', { time: minutesAndSeconds(left) })}
            </span>
          )}
        </>
      )}
      <Button size="sm" variant="secondary" onClick={onRejoin}>
        {hasFailed ? t('call.retry') : t('call.rejoin')}
      </Button>
    </div>
  );
}
