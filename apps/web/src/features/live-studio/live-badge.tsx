import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { RehearsalBadge } from './rehearsal-go-live';

/**
 * The red LIVE mark everyone in the room sees while the meeting is on air; "Rehearsal" instead while
 * the broadcast is rehearsed (ADR 047), seen by nobody outside.
 */
export function LiveBadge({ isRehearsal = false }: { isRehearsal?: boolean }) {
  if (isRehearsal) return <RehearsalBadge />;
  return (
    <Suspense fallback={null}>
      <LiveBadgeInner />
    </Suspense>
  );
}

function LiveBadgeInner() {
  const { t } = useTranslation('streaming');
  return (
    <span
      role="status"
      aria-label={t('live.badge_label')}
      className="inline-flex items-center gap-1.5 rounded bg-red-600 px-2 py-0.5 text-xs font-bold tracking-wide text-white"
    >
      <span aria-hidden className="size-1.5 animate-pulse rounded-full bg-white" />
      {t('live.badge')}
    </span>
  );
}
