import { DownloadIcon } from 'lucide-react';
import type { LiveBroadcast } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { Button, buttonClasses } from '../../components/button';
import { formatDuration } from '../../lib/format-duration';
import { DestinationStatus } from './destination-status';
import { BroadcastNotice, StudioSection } from './live-view';
import { StateBadge } from './state-badge';

/** After the broadcast: how each destination ended, why it failed, and the recording when one was made. */
export function EndedView({ broadcast, onNewBroadcast }: { broadcast: LiveBroadcast; onNewBroadcast?: () => void }) {
  const { t } = useTranslation('streaming');
  const duration =
    broadcast.started_at !== null && broadcast.ended_at !== null
      ? formatDuration(broadcast.ended_at - broadcast.started_at)
      : undefined;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-2">
        <StateBadge state={broadcast.state} />
        {duration && (
          <span className="text-sm text-slate-700 tabular-nums dark:text-slate-300">
            {t('ended.lasted', { time: duration })}
          </span>
        )}
      </div>
      <BroadcastNotice notice={broadcast.notice} />
      {broadcast.destinations.length > 0 && (
        <StudioSection title={t('live.destinations')}>
          <ul className="divide-y divide-slate-200 dark:divide-slate-700">
            {broadcast.destinations.map((destination) => (
              <DestinationStatus key={destination.connection_id} destination={destination} />
            ))}
          </ul>
        </StudioSection>
      )}
      <StudioSection title={t('ended.recording')}>
        {broadcast.recording ? (
          <div className="flex flex-wrap items-center gap-2">
            <a href={broadcast.recording.url} target="_blank" rel="noopener" className={buttonClasses('primary', 'sm')}>
              {t('ended.watch_recording', { time: formatDuration(broadcast.recording.duration) })}
            </a>
            <a href={broadcast.recording.url} download className={buttonClasses('ghost', 'sm')}>
              <DownloadIcon className="size-4" />
              {t('recordings.download')}
            </a>
          </div>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('ended.no_recording')}</p>
        )}
      </StudioSection>
      {onNewBroadcast && (
        <Button variant="secondary" className="w-full" onClick={onNewBroadcast}>
          {t('ended.new_broadcast')}
        </Button>
      )}
    </div>
  );
}
