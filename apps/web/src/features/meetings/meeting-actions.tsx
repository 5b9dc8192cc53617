import { isRepeatCode, type MeetingOccurrence } from './meeting-labels';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { meetingRoomPath } from '@meetcast/contracts';
import { useCurrentUser } from '../session';
import { RecordingButton } from '../streaming';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useMeetingDialogs } from './meeting-dialogs';
import { downloadFile } from '../../lib/download';
import { meetingsApi, roomUrl } from './meetings-api';
import { formatDateTime } from '../../lib/zoned-time';

type Pending = 'cancel' | 'delete' | null;

/** Join, copy link, calendar file, edit, cancel (one occurrence or the series) and delete. */
export function MeetingActions({ item, isUpcoming }: { item: MeetingOccurrence; isUpcoming: boolean }) {
  const { t, i18n } = useTranslation('meetings');
  const user = useCurrentUser();
  const dialogs = useMeetingDialogs();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending>(null);
  const [scope, setScope] = useState<'occurrence' | 'series'>('occurrence');
  const [isBusy, setIsBusy] = useState(false);
  const isCancelled = item.state === 'cancelled';
  const zone = user?.time_zone ?? 'UTC';

  async function run(work: () => Promise<{ message: string }>) {
    setIsBusy(true);
    try {
      toast.success((await work()).message);
      setPending(null);
      await queryClient.invalidateQueries({ queryKey: ['meetings'] });
      await queryClient.invalidateQueries({ queryKey: ['calendar'] });
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setIsBusy(false);
    }
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(roomUrl(item));
      toast.success(t('card.copied'));
    } catch {
      toast.error(t('card.copy_failed'));
    }
  }

  async function download() {
    try {
      const answer = await meetingsApi.ics(item.id);
      downloadFile(answer.data.filename, answer.data.content, 'text/calendar');
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure));
    }
  }

  const isRepeating = isRepeatCode(item.repeat) && item.repeat !== 0;
  return (
    <div className="flex flex-wrap gap-2">
      {isUpcoming && !isCancelled && (
        <Link
          to={meetingRoomPath(item)}
          className="inline-flex h-8 items-center rounded-lg bg-primary-600 px-3 text-sm font-semibold text-white hover:bg-primary-700 dark:bg-primary-500 dark:text-slate-950"
        >
          {t('card.join')}
        </Link>
      )}
      {!isUpcoming && <RecordingButton slug={item.url_slug} />}
      <Button size="sm" variant="secondary" onClick={() => void copyLink()}>
        {t('card.copy_link')}
      </Button>
      <Button size="sm" variant="ghost" onClick={() => void download()}>
        {t('card.download')}
      </Button>
      {item.is_host && isUpcoming && !isCancelled && (
        <>
          <Button size="sm" variant="ghost" onClick={() => dialogs.openEdit(item)}>
            {t('card.edit')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setPending('cancel')}>
            {t('card.cancel')}
          </Button>
        </>
      )}
      {item.is_host && (
        <Button
          size="sm"
          variant="ghost"
          className="text-red-700 dark:text-red-300"
          onClick={() => setPending('delete')}
        >
          {t('card.delete')}
        </Button>
      )}
      <ConfirmDialog
        open={pending === 'cancel'}
        title={t('cancel_dialog.title')}
        text={t('cancel_dialog.text', { name: item.name })}
        confirmLabel={t('cancel_dialog.confirm')}
        isBusy={isBusy}
        onCancel={() => setPending(null)}
        onConfirm={() =>
          void run(() =>
            meetingsApi.cancel(item.id, isRepeating && scope === 'occurrence' ? item.occurrence_start : undefined),
          )
        }
      >
        {isRepeating && (
          <fieldset className="space-y-2 text-sm">
            <legend className="sr-only">{t('cancel_dialog.scope')}</legend>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="scope"
                checked={scope === 'occurrence'}
                onChange={() => setScope('occurrence')}
              />
              {t('cancel_dialog.occurrence', { when: formatDateTime(item.occurrence_start, zone, i18n.language) })}
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="scope" checked={scope === 'series'} onChange={() => setScope('series')} />
              {t('cancel_dialog.series')}
            </label>
          </fieldset>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={pending === 'delete'}
        title={t('delete_dialog.title')}
        text={t('delete_dialog.text', { name: item.name })}
        confirmLabel={t('delete_dialog.confirm')}
        isBusy={isBusy}
        onCancel={() => setPending(null)}
        onConfirm={() => void run(() => meetingsApi.remove(item.id))}
      />
    </div>
  );
}
