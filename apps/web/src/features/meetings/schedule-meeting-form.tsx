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
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api';
import { useCurrentUser } from '../session';
import { DateTimeField } from '../../components/date-time-field';
import { SelectField, TextAreaField } from '../../components/form-controls';
import { InviteePicker, type InviteeSelection } from './invitee-picker';
import { meetingsApi, roomAddressPreview } from './meetings-api';
import { useSlugCheck } from './use-slug-check';
import { browserTimeZone, fromWall, isKnownTimeZone, toWall } from '../../lib/zoned-time';

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
}

const REPEAT_CODES = [REPEAT.none, REPEAT.daily, REPEAT.weekly, REPEAT.biweekly, REPEAT.monthly];
const HOUR_MS = 3_600_000;

/** The "Schedule a meeting" form, exactly per spec sections 3-5; also edits a meeting. */
export default function ScheduleMeetingForm({ meeting, preset, onClose }: ScheduleMeetingFormProps) {
  const { t } = useTranslation('meetings');
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const zone = isKnownTimeZone(user?.time_zone) ? user.time_zone : browserTimeZone();
  const slugCheck = useSlugCheck(meeting?.id);
  const initialStart = meeting?.start_time ?? preset?.start;
  const initialEnd = meeting?.end_time ?? preset?.end;
  const [name, setName] = useState(meeting?.name ?? '');
  const [slug, setSlug] = useState(meeting?.slug ?? '');
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

  // Start not earlier than now (an edited series may keep a start in the past); end not before start.
  const [minStart] = useState(() => {
    const now = toWall(Math.floor(Date.now() / 1000), zone);
    const original = meeting ? toWall(meeting.start_time, zone) : undefined;
    return original && original < now ? original : now;
  });

  function onSlugChange(value: string) {
    setSlug(value);
    if (meeting && value === meeting.slug) slugCheck.reset();
    else slugCheck.check(value);
  }

  function onStartChange(value: Date | null) {
    setStart(value);
    if (value && (!end || end < value)) setEnd(new Date(value.getTime() + HOUR_MS));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (slugCheck.error) return;
    if (!name.trim() || !start || !end || !slug.trim()) {
      toast.error(t('form.invalid_data'));
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
        toast.success(answer.message);
        await queryClient.invalidateQueries({ queryKey: ['meetings'] });
        onClose();
      } else {
        await meetingsApi.addMeeting(fields);
        // Spec section 4: scheduling success reloads the page.
        window.location.reload();
      }
    } catch (failure) {
      toast.error(failure instanceof ApiError || failure instanceof Error ? failure.message : String(failure));
    } finally {
      setIsSubmitting(false);
    }
  }

  const roomAddress = roomAddressPreview(slug);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('form.aria_schedule')}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('form.name')}
          name="name"
          value={name}
          maxLength={MEETING_NAME_MAX}
          onChange={(event) => setName(event.target.value)}
        />
        <TextField
          label={t('form.slug')}
          name="slug"
          value={slug}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => onSlugChange(event.target.value)}
          error={slugCheck.error}
          hint={t('form.slug_hint', { url: roomAddress })}
        />
        <DateTimeField
          label={t('form.start')}
          name="start_time"
          value={start}
          minDate={minStart}
          onChange={onStartChange}
        />
        <DateTimeField
          label={t('form.end')}
          name="end_time"
          value={end}
          minDate={start ?? minStart}
          onChange={setEnd}
        />
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
            onChange={(event) => setPassword(event.target.value)}
            hint={meeting?.password ? undefined : t('form.password_hint')}
          />
        )}
      </div>
      <TextAreaField
        label={t('form.description')}
        name="description"
        value={description}
        maxLength={MEETING_DESCRIPTION_MAX}
        onChange={(event) => setDescription(event.target.value)}
      />
      <InviteePicker value={invitees} onChange={setInvitees} />
      <p className="text-xs text-slate-600 dark:text-slate-400">{t('form.time_zone_note', { zone })}</p>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t('form.cancel')}
        </Button>
        <Button type="submit" disabled={Boolean(slugCheck.error)} isLoading={isSubmitting}>
          {meeting ? t('form.save') : t('form.add')}
        </Button>
      </div>
    </form>
  );
}
