import type { StreamConnection } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { formatDateTime } from '../../lib/zoned-time';
import { useCurrentUser } from '../session';

const STATUS_CLASSES: Record<StreamConnection['status'], string> = {
  connected: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-500/15 dark:text-emerald-300',
  expired: 'bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300',
  revoked: 'bg-red-100 text-red-900 dark:bg-red-500/15 dark:text-red-300',
};

/** What is known of an RTMP address: nothing can say "connected" before something answered there. */
type RtmpKnown = 'untried' | 'worked' | 'failed' | 'live';

const KNOWN_CLASSES: Record<RtmpKnown, string> = {
  untried: 'bg-slate-100 text-slate-800 dark:bg-slate-500/20 dark:text-slate-200',
  worked: STATUS_CLASSES.connected,
  live: STATUS_CLASSES.connected,
  failed: STATUS_CLASSES.revoked,
};

/** The newest thing known: a test after the last live tells more than that live, and the other way round. */
function rtmpKnown(connection: StreamConnection): RtmpKnown {
  const { last_test_at: testedAt, last_test_result: result, last_live_at: liveAt } = connection;
  if (liveAt !== null && (testedAt === null || liveAt >= testedAt)) return 'live';
  if (result !== null) return result;
  return 'untried';
}

/** Whether a connection can be streamed to, as a word on a coloured pill (never colour alone). */
export function ConnectionStatus({ status }: { status: StreamConnection['status'] }) {
  const { t } = useTranslation('streaming');
  return (
    <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', STATUS_CLASSES[status])}>
      {t(`status.${status}`)}
    </span>
  );
}

/** An RTMP address's pill: what was last seen there, since nothing answers for it until a push. */
export function RtmpKnownStatus({ connection }: { connection: StreamConnection }) {
  const { t } = useTranslation('streaming');
  const known = rtmpKnown(connection);
  return (
    <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', KNOWN_CLASSES[known])}>
      {t(`rtmp.known.${known}`)}
    </span>
  );
}

/** The dates behind an RTMP address's pill: its last test (and why it failed) and its last live. */
export function RtmpHistory({ connection }: { connection: StreamConnection }) {
  const { t, i18n } = useTranslation('streaming');
  const zone = useCurrentUser()?.time_zone ?? 'UTC';
  const when = (epochSeconds: number) => formatDateTime(epochSeconds, zone, i18n.language);
  const lines: string[] = [];
  if (connection.last_test_at !== null && connection.last_test_result === 'worked') {
    lines.push(t('rtmp.history.test_worked', { when: when(connection.last_test_at) }));
  }
  if (connection.last_test_at !== null && connection.last_test_result === 'failed') {
    lines.push(
      t('rtmp.history.test_failed', { when: when(connection.last_test_at), reason: connection.last_test_reason ?? '' }),
    );
  }
  if (connection.last_live_at !== null) lines.push(t('rtmp.history.live', { when: when(connection.last_live_at) }));
  if (lines.length === 0) lines.push(t('rtmp.history.untried'));
  return (
    <>
      {lines.map((line) => (
        <p key={line} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {line}
        </p>
      ))}
    </>
  );
}
