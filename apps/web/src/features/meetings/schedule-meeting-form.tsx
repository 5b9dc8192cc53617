import {
  MEETING_DESCRIPTION_MAX,
  MEETING_NAME_MAX,
  MEETING_PASSWORD_MAX,
  PASSWORD_FLAG,
  PRIVACY,
  REPEAT,
  SCHEDULE_FLAG,
  type Meeting,
} from '@meetcast/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { DateTimeField } from '../../components/date-time-field';
import { DialogClose } from '../../components/dialog';
import { SelectField, TextAreaField } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { showFormError, showFormSuccess, showSuccessAfterReload } from '../../lib/form-toast';
import { browserTimeZone, fromWall, isKnownTimeZone, toWall } from '../../lib/zoned-time';
import { useCurrentUser } from '../session';
import { InviteePicker, type InviteeSelection } from './invitee-picker';
import { meetingsApi } from './meetings-api';
import { SlugField, useProposedSlug } from './slug-field';
import { useSlugCheck } from './use-slug-check';

export interface SchedulePreset {
  /** Epoch seconds, e.g. a slot selected in the calendar. */
  start?: number;
  end?: number;
}

export interface ScheduleMeetingFormProps {
  /** Edit this meeting instead of scheduling a new one. */
  meeting?: Meeting;
  preset?: SchedulePreset;
  onClose(): void;
  /** Whether something was typed that closing the dialog would lose. */
  onDirtyChange(isDirty: boolean): void;
}

const REPEAT_CODES = [REPEAT.none, REPEAT.daily, REPEAT.weekly, REPEAT.biweekly, REPEAT.monthly];
const HOUR_MS = 3_600_000;
const FORM = 'schedule-meeting';
// Past means before the form opened, less a minute: a start picked as "now" stays valid.
const PAST_SLACK_MS = 60_000;

/** The "Schedule a meeting" form (ADR 005); also edits a meeting. */
export default function ScheduleMeetingForm({ meeting, preset, onClose, onDirtyChange }: ScheduleMeetingFormProps) {
  const { t } = useTranslation('meetings');
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const zone = isKnownTimeZone(user?.time_zone) ? user.time_zone : browserTimeZone();
  const slugCheck = useSlugCheck(meeting?.id);
  const initialStart = meeting?.start_time ?? preset?.start;
  const initialEnd = meeting?.end_time ?? preset?.end;
  const [name, setName] = useState(meeting?.name ?? '');
  const proposal = useProposedSlug(slugCheck, meeting?.slug);
  const slug = proposal.slug;
  const [start, setStart] = useState<Date | null>(initialStart ? toWall(initialStart, zone) : null);
  const [end, setEnd] = useState<Date | null>(initialEnd ? toWall(initialEnd, zone) : null);
  const [isPrivate, setIsPrivate] = useState<number>(meeting?.is_private ?? PRIVACY.public);
  const [isPassword, setIsPassword] = useState<number>(meeting?.is_password ?? PASSWORD_FLAG.no);
  const [password, setPassword] = useState(meeting?.password ?? '');
  const [repeat, setRepeat] = useState<number>(meeting?.repeat ?? REPEAT.none);
  const [description, setDescription] = useState(meeting?.description ?? '');
  const [invitees, setInvitees] = useState<InviteeSelection>({
    contacts: [],
    emails: meeting?.invitees.map((invitee) => invitee.email) ?? [],
  });
  const [isSubmitting, setIsSubmitting] = useState(false);

  // Said under the field rather than silently cleared: a start in the past (an edited series may
  // keep its own past start) and an end that is not after the start.
  const [openedAt] = useState(() => Date.now());
  const keepsOriginalStart = meeting !== undefined && start?.getTime() === toWall(meeting.start_time, zone).getTime();
  const startError =
    start && !keepsOriginalStart && fromWall(start, zone) * 1000 < openedAt - PAST_SLACK_MS
      ? t('form.errors.start_past')
      : undefined;
  const endError = start && end && end <= start ? t('form.errors.end_before_start') : undefined;

  const typed =
    <T,>(setter: (value: T) => void) =>
    (value: T) => {
      setter(value);
      onDirtyChange(true);
    };

  function onStartChange(value: Date | null) {
    // Moving the start keeps the meeting's length, as calendars do; an end typed before it is flagged.
    if (value && start && end && end > start) setEnd(new Date(value.getTime() + (end.getTime() - start.getTime())));
    else if (value && !end) setEnd(new Date(value.getTime() + HOUR_MS));
    setStart(value);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (slugCheck.error || startError || endError) return;
    if (!name.trim() || !start || !end || !slug.trim()) {
      showFormError(FORM, t('form.invalid_data'));
      return;
    }
    const isPrivateMeeting = isPrivate === PRIVACY.private;
    const fields = {
      name,
      is_schedule: SCHEDULE_FLAG.scheduled,
      start_time: fromWall(start, zone),
      end_time: fromWall(end, zone),
      is_private: isPrivate,
      password: isPrivateMeeting && isPassword === PASSWORD_FLAG.yes ? password : '',
      is_password: isPrivateMeeting ? isPassword : PASSWORD_FLAG.no,
      slug,
      repeat,
      description,
      time_zone: zone,
      invitees: invitees.emails.join(',') || (meeting ? '' : undefined),
      invitee_contacts: invitees.contacts.map((contact) => contact.id).join(',') || undefined,
    };
    setIsSubmitting(true);
    try {
      if (meeting) {
        const answer = await meetingsApi.editMeeting({ ...fields, id: meeting.id });
        showFormSuccess(FORM, answer.message);
        await queryClient.invalidateQueries({ queryKey: ['meetings'] });
        onClose();
      } else {
        const answer = await meetingsApi.addMeeting(fields);
        // Spec section 4: scheduling success reloads the page; the toast waits for the new page.
        showSuccessAfterReload(answer.message);
        window.location.reload();
      }
    } catch (failure) {
      showFormError(FORM, failure instanceof Error ? failure.message : String(failure));
    } finally {
      setIsSubmitting(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('form.aria_schedule')}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('form.name')}
          name="name"
          value={name}
          maxLength={MEETING_NAME_MAX}
          onChange={(event) => {
            setName(event.target.value);
            onDirtyChange(true);
            if (!meeting) proposal.onNameChange(event.target.value);
          }}
        />
        <SlugField slug={slug} error={slugCheck.error} onChange={typed(proposal.onSlugChange)} />
        <DateTimeField
          label={t('form.start')}
          name="start_time"
          value={start}
          error={startError}
          onChange={onStartChange}
        />
        <DateTimeField label={t('form.end')} name="end_time" value={end} error={endError} onChange={setEnd} />
        <SelectField
          label={t('form.privacy')}
          name="is_private"
          value={isPrivate}
          onChange={(event) => setIsPrivate(Number(event.target.value))}
          options={[
            { value: String(PRIVACY.public), label: t('form.public') },
            { value: String(PRIVACY.private), label: t('form.private') },
          ]}
        />
        <SelectField
          label={t('form.repeat')}
          name="repeat"
          value={repeat}
          onChange={(event) => setRepeat(Number(event.target.value))}
          options={REPEAT_CODES.map((code) => ({ value: String(code), label: t(`repeat.${code}`) }))}
        />
        {isPrivate === PRIVACY.private && (
          <SelectField
            label={t('form.password_flag')}
            name="is_password"
            value={isPassword}
            onChange={(event) => setIsPassword(Number(event.target.value))}
            options={[
              { value: String(PASSWORD_FLAG.no), label: t('form.no') },
              { value: String(PASSWORD_FLAG.yes), label: t('form.yes') },
            ]}
          />
        )}
        {isPrivate === PRIVACY.private && isPassword === PASSWORD_FLAG.yes && (
          <TextField
            label={t('form.password')}
            name="password"
            type="password"
            autoComplete="new-password"
            maxLength={MEETING_PASSWORD_MAX}
            value={password}
            onChange={(event) => typed(setPassword)(event.target.value)}
            hint={meeting?.password ? undefined : t('form.password_hint')}
          />
        )}
      </div>
      <TextAreaField
        label={t('form.description')}
        name="description"
        value={description}
        maxLength={MEETING_DESCRIPTION_MAX}
        onChange={(event) => typed(setDescription)(event.target.value)}
      />
      <InviteePicker value={invitees} onChange={typed(setInvitees)} />
      <p className="text-xs text-slate-600 dark:text-slate-400">{t('form.time_zone_note', { zone })}</p>
      {/* Stays in view at the bottom of the dialog however many invitees the form lists. */}
      <div className="sticky bottom-0 z-10 -mx-6 flex justify-end gap-2 border-t border-slate-200 bg-white px-6 py-3 dark:border-slate-700 dark:bg-slate-900">
        <DialogClose>{t('form.cancel')}</DialogClose>
        <Button type="submit" disabled={Boolean(slugCheck.error || startError || endError)} isLoading={isSubmitting}>
          {meeting ? t('form.save') : t('form.add')}
        </Button>
      </div>
    </form>
  );
}
