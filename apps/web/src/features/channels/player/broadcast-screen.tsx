import type { BroadcastViewer } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { LivePlayer } from './live-player';
import { ReplayPlayer } from './replay-player';

/** What the channel page shows where the broadcast plays: the live player, a starting note, or the replay. */
export function BroadcastScreen({
  viewer,
  title,
  showsViewerCount = true,
}: {
  viewer: BroadcastViewer;
  title: string;
  /** The watch page says it with the broadcast's details instead (watch-stage.tsx). */
  showsViewerCount?: boolean;
}) {
  const { t } = useTranslation('player');
  if (viewer.public_state === 'live' && viewer.state === 'live') {
    return (
      <div className="space-y-2">
        <LivePlayer viewer={viewer} title={title} />
        {showsViewerCount && <ViewerCount viewer={viewer} />}
      </div>
    );
  }
  if (viewer.public_state === 'live') {
    return (
      <p role="status" className="flex aspect-video w-full items-center justify-center rounded-xl bg-black/70 text-sm">
        {t('starting')}
      </p>
    );
  }
  if (viewer.public_state === 'replay' && viewer.recording)
    return (
      <ReplayPlayer
        url={viewer.recording.url}
        title={title}
        duration={viewer.recording.duration}
        chapters={viewer.recording.chapters}
      />
    );
  return null;
}

export function ViewerCount({ viewer, className }: { viewer: BroadcastViewer; className?: string }) {
  const { t } = useTranslation('player');
  if (viewer.viewers === null || viewer.public_state !== 'live') return null;
  return (
    <p data-testid="viewer-count" className={className ?? 'text-sm opacity-90'}>
      {t('viewers', { count: viewer.viewers })}
    </p>
  );
}

/** Whether the page has something to play for this broadcast (live, starting, or a recording). */
export const hasScreen = (viewer: BroadcastViewer | undefined) =>
  viewer !== undefined &&
  (viewer.public_state === 'live' || (viewer.public_state === 'replay' && viewer.recording !== null));
