import {
  AddMeetingInputSchema,
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
import { useEffect, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../components/button';
import { DateTimeField } from '../../components/date-time-field';
import { DialogClose } from '../../components/dialog';
import { SelectField, TextAreaField } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { showFormError, showFormSuccess, showSuccessAfterReload } from '../../lib/form-toast';
import { useSchemaForm } from '../../lib/use-schema-form';
import { browserTimeZone, fromWall, isKnownTimeZone, toWall } from '../../lib/zoned-time';
import { useCurrentUser } from '../session';
import { InviteePicker, type InviteeSelection } from './invitee-picker';
import { meetingsApi } from './meetings-api';
import { MeetingSlugSchema, SlugField, useProposedSlug } from './slug-field';
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

/** A picked time: empty until chosen, required to schedule. */
const PickedTime = z.date().nullable().pipe(z.date());
const { shape } = AddMeetingInputSchema;
/** The call's fields as the form holds them: wall-clock times, the invitees as the picker shows them. */
const FormSchema = AddMeetingInputSchema.pick({ name: true, password: true, description: true }).required().extend({
  slug: MeetingSlugSchema,
  start: PickedTime,
  end: PickedTime,
  is_private: shape.is_private.unwrap(),
  is_password: shape.is_password.unwrap(),
  repeat: shape.repeat.unwrap(),
  invitees: z.custom<InviteeSelection>(),
});

/** The "Schedule a meeting" form (ADR 005); also edits a meeting. */
export default function ScheduleMeetingForm({ meeting, preset, onClose, onDirtyChange }: ScheduleMeetingFormProps) {
  const { t } = useTranslation('meetings');
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const zone = isKnownTimeZone(user?.time_zone) ? user.time_zone : browserTimeZone();
  const slugCheck = useSlugCheck(meeting?.id);
  const initialStart = meeting?.start_time ?? preset?.start;
  const initialEnd = meeting?.end_time ?? preset?.end;
  const proposal = useProposedSlug(slugCheck, meeting?.slug);
  const slug = proposal.slug;
  const form = useSchemaForm(FormSchema, {
    defaultValues: {
      name: meeting?.name ?? '',
      slug,
      start: initialStart ? toWall(initialStart, zone) : null,
      end: initialEnd ? toWall(initialEnd, zone) : null,
      is_private: meeting?.is_private ?? PRIVACY.public,
      is_password: meeting?.is_password ?? PASSWORD_FLAG.no,
      password: meeting?.password ?? '',
      repeat: meeting?.repeat ?? REPEAT.none,
      description: meeting?.description ?? '',
      invitees: { contacts: [], emails: meeting?.invitees.map((invitee) => invitee.email) ?? [] },
    },
  });
  // The slug is proposed from the name or typed, and checked with the server, by `useProposedSlug`.
  useEffect(() => form.setValue('slug', slug), [form, slug]);
  const [start, end, isPrivate, isPassword] = useWatch({
    control: form.control,
    name: ['start', 'end', 'is_private', 'is_password'],
  });
  const { isSubmitting } = form.formState;

  // Said under the field rather than silently cleared: a start in the past (an edited series may
  // keep its own past start) and an end that is not after the start.
  const [openedAt] = useState(() => Date.now());
  const keepsOriginalStart = meeting !== undefined && start?.getTime() === toWall(meeting.start_time, zone).getTime();
  const startError =
    start && !keepsOriginalStart && fromWall(start, zone) * 1000 < openedAt - PAST_SLACK_MS
      ? t('form.errors.start_past')
      : undefined;
  const endError = start && end && end <= start ? t('form.errors.end_before_start') : undefined;
  const isBlocked = Boolean(slugCheck.error || startError || endError);
  const typed = { onChange: () => onDirtyChange(true) };

  function onStartChange(value: Date | null) {
    // Moving the start keeps the meeting's length, as calendars do; an end typed before it is flagged.
    if (value && start && end && end > start) {
      form.setValue('end', new Date(value.getTime() + (end.getTime() - start.getTime())));
    } else if (value && !end) form.setValue('end', new Date(value.getTime() + HOUR_MS));
    form.setValue('start', value);
  }

  const onSubmit = form.handleSubmit(
    async (values) => {
      if (isBlocked) return;
      const isPrivateMeeting = values.is_private === PRIVACY.private;
      const fields = {
        name: values.name,
        is_schedule: SCHEDULE_FLAG.scheduled,
        start_time: fromWall(values.start, zone),
        end_time: fromWall(values.end, zone),
        is_private: values.is_private,
        password: isPrivateMeeting && values.is_password === PASSWORD_FLAG.yes ? values.password : '',
        is_password: isPrivateMeeting ? values.is_password : PASSWORD_FLAG.no,
        slug: values.slug,
        repeat: values.repeat,
        description: values.description,
        time_zone: zone,
        invitees: values.invitees.emails.join(',') || (meeting ? '' : undefined),
        invitee_contacts: values.invitees.contacts.map((contact) => contact.id).join(',') || undefined,
      };
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
      }
    },
    () => {
      if (!isBlocked) showFormError(FORM, t('form.invalid_data'));
    },
  );

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      className="space-y-4"
      aria-label={t('form.aria_schedule')}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('form.name')}
          maxLength={MEETING_NAME_MAX}
          {...form.register('name', {
            onChange: (event: { target: { value: string } }) => {
              onDirtyChange(true);
              if (!meeting) proposal.onNameChange(event.target.value);
            },
          })}
        />
        <SlugField
          slug={slug}
          error={slugCheck.error}
          onChange={(value) => {
            onDirtyChange(true);
            proposal.onSlugChange(value);
          }}
        />
        <DateTimeField
          label={t('form.start')}
          name="start_time"
          value={start}
          error={startError}
          onChange={onStartChange}
        />
        <Controller
          control={form.control}
          name="end"
          render={({ field }) => (
            <DateTimeField
              label={t('form.end')}
              name="end_time"
              value={field.value}
              error={endError}
              onChange={field.onChange}
            />
          )}
        />
        <SelectField
          label={t('form.privacy')}
          {...form.register('is_private', { valueAsNumber: true })}
          options={[
            { value: String(PRIVACY.public), label: t('form.public') },
            { value: String(PRIVACY.private), label: t('form.private') },
          ]}
        />
        <SelectField
          label={t('form.repeat')}
          {...form.register('repeat', { valueAsNumber: true })}
          options={REPEAT_CODES.map((code) => ({ value: String(code), label: t(`repeat.${code}`) }))}
        />
        {isPrivate === PRIVACY.private && (
          <SelectField
            label={t('form.password_flag')}
            {...form.register('is_password', { valueAsNumber: true })}
            options={[
              { value: String(PASSWORD_FLAG.no), label: t('form.no') },
              { value: String(PASSWORD_FLAG.yes), label: t('form.yes') },
            ]}
          />
        )}
        {isPrivate === PRIVACY.private && isPassword === PASSWORD_FLAG.yes && (
          <TextField
            label={t('form.password')}
            type="password"
            autoComplete="new-password"
            maxLength={MEETING_PASSWORD_MAX}
            {...form.register('password', typed)}
            hint={meeting?.password ? undefined : t('form.password_hint')}
          />
        )}
      </div>
      <TextAreaField
        label={t('form.description')}
        maxLength={MEETING_DESCRIPTION_MAX}
        {...form.register('description', typed)}
      />
      <Controller
        control={form.control}
        name="invitees"
        render={({ field }) => (
          <InviteePicker
            value={field.value}
            onChange={(value) => {
              onDirtyChange(true);
              field.onChange(value);
            }}
          />
        )}
      />
      <p className="text-xs text-slate-600 dark:text-slate-400">{t('form.time_zone_note', { zone })}</p>
      {/* Stays in view at the bottom of the dialog however many invitees the form lists. */}
      <div className="sticky bottom-0 z-10 -mx-6 flex justify-end gap-2 border-t border-slate-200 bg-white px-6 py-3 dark:border-slate-700 dark:bg-slate-900">
        <DialogClose>{t('form.cancel')}</DialogClose>
        <Button type="submit" disabled={isBlocked} isLoading={isSubmitting}>
          {meeting ? t('form.save') : t('form.add')}
        </Button>
      </div>
    </form>
  );
}
