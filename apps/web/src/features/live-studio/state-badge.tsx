import type { DestinationState, LiveBroadcastState } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';

const CLASSES: Record<DestinationState, string> = {
  starting: 'bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300',
  live: 'bg-red-600 text-white',
  reconnecting: 'bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300',
  failed: 'border border-red-300 bg-red-50 text-red-800 dark:border-red-500/40 dark:bg-red-500/10 dark:text-red-300',
  ended: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-200',
};

/** A broadcast's or a destination's state as a word on a pill; "starting" and "reconnecting" pulse. */
export function StateBadge({ state }: { state: DestinationState | LiveBroadcastState }) {
  const { t } = useTranslation('streaming');
  const isMoving = state === 'starting' || state === 'reconnecting';
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold',
        CLASSES[state],
      )}
    >
      <span
        aria-hidden
        className={cn('size-1.5 rounded-full bg-current', isMoving && 'animate-pulse', state === 'ended' && 'hidden')}
      />
      {t(`states.${state}`)}
    </span>
  );
}
