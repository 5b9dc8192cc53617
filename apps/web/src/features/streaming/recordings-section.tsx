import { DownloadIcon } from 'lucide-react';
import type { Recording } from '@meetcast/contracts';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, buttonClasses } from '../../components/button';
import { Panel } from '../../components/form-controls';
import { Spinner } from '../../components/spinner';
import { formatDuration } from '../../lib/format-duration';
import { formatDateTime } from '../../lib/zoned-time';
import { useCurrentUser } from '../session';
import { RecordingDialog } from './recording-dialog';
import { useRecordings } from './streaming-api';

/** My Channel's "Recordings": every recording of the account, newest first, each playable and downloadable. */
export function RecordingsSection() {
  return (
    <Suspense fallback={null}>
      <RecordingsSectionInner />
    </Suspense>
  );
}

function RecordingsSectionInner() {
  const { t, i18n } = useTranslation('streaming');
  const zone = useCurrentUser()?.time_zone ?? 'UTC';
  const recordings = useRecordings();
  const [playing, setPlaying] = useState<Recording>();
  const list = [...(recordings.data ?? [])].sort((a, b) => b.created_at - a.created_at);
  return (
    <Panel title={t('recordings.title')} description={t('recordings.description')}>
      {recordings.isPending ? (
        <Spinner label={t('recordings.loading')} />
      ) : recordings.isError ? (
        <p className="text-sm text-red-700 dark:text-red-300">{recordings.error.message}</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('recordings.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {list.map((recording) => (
            <li key={recording.broadcast_id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p
                  dir="auto"
                  className="truncate font-medium text-slate-900 ltr:text-left rtl:text-right dark:text-white"
                >
                  {recording.meeting_title}
                </p>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  {t('recordings.recorded', {
                    when: formatDateTime(recording.created_at, zone, i18n.language),
                    duration: formatDuration(recording.duration),
                  })}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button
                  size="sm"
                  onClick={() => setPlaying(recording)}
                  aria-label={t('recordings.play_name', { title: recording.meeting_title })}
                >
                  {t('recordings.play')}
                </Button>
                <a
                  href={recording.url}
                  download
                  aria-label={t('recordings.download_name', { title: recording.meeting_title })}
                  className={buttonClasses('ghost', 'sm')}
                >
                  <DownloadIcon className="size-4" />
                  {t('recordings.download')}
                </a>
              </div>
            </li>
          ))}
        </ul>
      )}
      <RecordingDialog
        recordings={playing ? [playing] : []}
        open={playing !== undefined}
        onOpenChange={(isOpen) => !isOpen && setPlaying(undefined)}
      />
    </Panel>
  );
}
