import { DownloadIcon } from 'lucide-react';
import type { Recording } from '@meetcast/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClasses } from '../../components/button';
import { Dialog, DialogClose } from '../../components/dialog';
import { SelectField } from '../../components/form-controls';
import { formatDuration } from '../../lib/format-duration';
import { formatDateTime } from '../../lib/zoned-time';
import { useCurrentUser } from '../session';

/** Plays a recording in the page (the server answers range requests, so seeking works) and offers it as a file. */
export function RecordingDialog({
  recordings,
  open,
  onOpenChange,
}: {
  /** One meeting's recordings, newest first; a select picks among them when there are several. */
  recordings: Recording[];
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { t, i18n } = useTranslation('streaming');
  const zone = useCurrentUser()?.time_zone ?? 'UTC';
  const [chosenId, setChosenId] = useState<number>();
  const recording = recordings.find((item) => item.broadcast_id === chosenId) ?? recordings[0];
  if (!recording) return null;
  const when = (item: Recording) => formatDateTime(item.created_at, zone, i18n.language);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('recordings.dialog_title', { title: recording.meeting_title })}
      description={t('recordings.recorded', { when: when(recording), duration: formatDuration(recording.duration) })}
      className="max-w-3xl"
      footer={
        <>
          <a href={recording.url} download className={buttonClasses('secondary')}>
            <DownloadIcon className="size-4" />
            {t('recordings.download')}
          </a>
          <DialogClose>{t('actions.close')}</DialogClose>
        </>
      }
    >
      <div className="space-y-4">
        {recordings.length > 1 && (
          <SelectField
            label={t('recordings.choose')}
            value={String(recording.broadcast_id)}
            onChange={(event) => setChosenId(Number(event.target.value))}
            options={recordings.map((item) => ({
              value: String(item.broadcast_id),
              label: t('recordings.option', { when: when(item), duration: formatDuration(item.duration) }),
            }))}
          />
        )}
        {/* The key makes a new element per recording, so the player never keeps the previous one's position. */}
        <video
          key={recording.broadcast_id}
          src={recording.url}
          controls
          preload="metadata"
          aria-label={t('recordings.player', { title: recording.meeting_title })}
          className="aspect-video w-full rounded-lg bg-black"
        />
      </div>
    </Dialog>
  );
}
