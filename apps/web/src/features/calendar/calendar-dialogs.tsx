import { meetingRoomPath, type MeetingOccurrence } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { formatRange } from '../../lib/zoned-time';

/** A slot was selected: a personal event, or a meeting at that time. */
export function SlotChoiceDialog({
  onEvent,
  onMeeting,
  onClose,
}: {
  onEvent(): void;
  onMeeting(): void;
  onClose(): void;
}) {
  const { t } = useTranslation('calendar');
  return (
    <Dialog open onOpenChange={(isOpen) => !isOpen && onClose()} title={t('slot.title')}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Button variant="secondary" size="lg" onClick={onEvent}>
          {t('slot.event')}
        </Button>
        <Button size="lg" onClick={onMeeting}>
          {t('slot.meeting')}
        </Button>
      </div>
    </Dialog>
  );
}

/** What a meeting in the calendar is, with a way in. */
export function MeetingDetailsDialog({
  meeting,
  zone,
  onClose,
}: {
  meeting: MeetingOccurrence;
  zone: string;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation('calendar');
  return (
    <Dialog
      open
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={meeting.name}
      description={formatRange(meeting.occurrence_start, meeting.occurrence_end, zone, i18n.language)}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('meeting.close')}
          </Button>
          <Link
            to={meetingRoomPath(meeting)}
            className="inline-flex h-10 items-center rounded-lg bg-primary-600 px-4 text-sm font-semibold text-white hover:bg-primary-700 dark:bg-primary-500 dark:text-slate-950"
          >
            {t('meeting.join')}
          </Link>
        </>
      }
    >
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {meeting.is_host ? t('meeting.you_host') : t('meeting.host', { name: meeting.host_name })}
      </p>
      {meeting.description && <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{meeting.description}</p>}
    </Dialog>
  );
}
