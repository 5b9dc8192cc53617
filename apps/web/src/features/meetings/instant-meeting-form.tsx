import { MEETING_NAME_MAX, meetingRoomPath } from '@meetcast/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { TextField } from '../../components/text-field';
import { dismissFormError, showFormError } from '../../lib/form-toast';
import { meetingsApi } from './meetings-api';
import { SlugField, useProposedSlug } from './slug-field';
import type { useSlugCheck } from './use-slug-check';

export const INSTANT_FORM_ID = 'instant-meeting-form';
const FORM = 'instant-meeting';

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
  const { t } = useTranslation('meetings');
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const proposal = useProposedSlug(slugCheck);
  const slug = proposal.slug;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (slugCheck.error) return;
    if (!name.trim() || !slug.trim()) {
      showFormError(FORM, t('form.invalid_data'));
      return;
    }
    onBusyChange(true);
    try {
      const answer = await meetingsApi.addInstantMeeting(name, slug);
      dismissFormError(FORM);
      onStarted();
      void navigate(meetingRoomPath({ url_slug: answer.data.url_slug, password: answer.data.password }));
    } catch (failure) {
      showFormError(FORM, failure instanceof Error ? failure.message : String(failure));
    } finally {
      onBusyChange(false);
    }
  }

  return (
    <form id={INSTANT_FORM_ID} onSubmit={onSubmit} noValidate className="space-y-4">
      <TextField
        label={t('form.name')}
        name="name"
        value={name}
        maxLength={MEETING_NAME_MAX}
        onChange={(event) => {
          setName(event.target.value);
          onDirtyChange(true);
          proposal.onNameChange(event.target.value);
        }}
        autoFocus
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
