import { AddInstantMeetingInputSchema, MEETING_NAME_MAX, meetingRoomPath } from '@meetcast/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { TextField } from '../../components/text-field';
import { dismissFormError, showFormError } from '../../lib/form-toast';
import { useSchemaForm } from '../../lib/use-schema-form';
import { meetingsApi } from './meetings-api';
import { MeetingSlugSchema, SlugField, useProposedSlug } from './slug-field';
import type { useSlugCheck } from './use-slug-check';

export const INSTANT_FORM_ID = 'instant-meeting-form';
const FORM = 'instant-meeting';

const FormSchema = AddInstantMeetingInputSchema.pick({ name: true }).extend({ slug: MeetingSlugSchema });

/**
 * "Enter your meeting name": name and slug (checked like the scheduling form); Start Meeting, in the
 * dialog's footer, submits this form. Success closes the dialog and opens /room/{url_slug}, with the
 * password when one came back.
 */
export function InstantMeetingForm({
  slugCheck,
  onStarted,
  onBusyChange,
  onDirtyChange,
}: {
  slugCheck: ReturnType<typeof useSlugCheck>;
  onStarted(): void;
  onBusyChange(isBusy: boolean): void;
  onDirtyChange(isDirty: boolean): void;
}) {
  const { t, i18n } = useTranslation('meetings');
  const navigate = useNavigate();
  // Start works at once, as in Zoom or Meet: the name is proposed from the time, the link is random.
  const [proposedName] = useState(() =>
    t('form.proposed_instant_name', {
      when: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date()),
    }),
  );
  const form = useSchemaForm(FormSchema, { defaultValues: { name: proposedName, slug: '' } });
  const proposal = useProposedSlug(slugCheck);
  const slug = proposal.slug;
  const { onProposedName } = proposal;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- proposed once, when the dialog opens
  useEffect(() => onProposedName(), []);
  // The slug is proposed from the name or typed, and checked with the server, by `useProposedSlug`.
  useEffect(() => form.setValue('slug', slug), [form, slug]);

  const onSubmit = form.handleSubmit(
    async ({ name, slug: chosen }) => {
      if (slugCheck.error) return;
      onBusyChange(true);
      try {
        const answer = await meetingsApi.addInstantMeeting(name, chosen);
        dismissFormError(FORM);
        onStarted();
        void navigate(meetingRoomPath({ url_slug: answer.data.url_slug, password: answer.data.password }));
      } catch (failure) {
        showFormError(FORM, failure instanceof Error ? failure.message : String(failure));
      } finally {
        onBusyChange(false);
      }
    },
    () => {
      if (!slugCheck.error) showFormError(FORM, t('form.invalid_data'));
    },
  );

  return (
    <form id={INSTANT_FORM_ID} onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
      <TextField
        label={t('form.name')}
        maxLength={MEETING_NAME_MAX}
        {...form.register('name', {
          onChange: (event: { target: { value: string } }) => {
            onDirtyChange(true);
            proposal.onNameChange(event.target.value);
          },
        })}
        autoFocus
        // Typing replaces the proposed name instead of adding to it.
        onFocus={(event) => event.target.select()}
      />
      <SlugField
        slug={slug}
        error={slugCheck.error}
        onChange={(value) => {
          onDirtyChange(true);
          proposal.onSlugChange(value);
        }}
      />
    </form>
  );
}
