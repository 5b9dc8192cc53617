import { MEETING_NAME_MAX, meetingRoomPath } from '@meetcast/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { TextField } from '../../components/text-field';
import { meetingsApi, roomAddressPreview } from './meetings-api';
import type { useSlugCheck } from './use-slug-check';

export const INSTANT_FORM_ID = 'instant-meeting-form';

/**
 * "Enter your meeting name": name and slug (checked like the scheduling form); Start Meeting, in the
 * dialog's footer, submits this form. Success closes the dialog and opens /room/{url_slug}, with the
 * password when one came back (spec section 4).
 */
export function InstantMeetingForm({
  slugCheck,
  onStarted,
  onBusyChange,
}: {
  slugCheck: ReturnType<typeof useSlugCheck>;
  onStarted(): void;
  onBusyChange(isBusy: boolean): void;
}) {
  const { t } = useTranslation('meetings');
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (slugCheck.error) return;
    if (!name.trim() || !slug.trim()) {
      toast.error(t('form.invalid_data'));
      return;
    }
    onBusyChange(true);
    try {
      const answer = await meetingsApi.addInstantMeeting(name, slug);
      onStarted();
      void navigate(meetingRoomPath({ url_slug: answer.data.url_slug, password: answer.data.password }));
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure));
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
        onChange={(event) => setName(event.target.value)}
        autoFocus
      />
      <TextField
        label={t('form.slug')}
        name="slug"
        value={slug}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          setSlug(event.target.value);
          slugCheck.check(event.target.value);
        }}
        error={slugCheck.error}
        hint={t('form.slug_hint', { url: roomAddressPreview(slug) })}
      />
    </form>
  );
}
