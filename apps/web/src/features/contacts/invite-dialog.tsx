import { InviteContactInputSchema, peopleCalls, type Contact } from '@meetcast/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { SelectField } from '../../components/form-controls';
import { Spinner } from '../../components/spinner';
import { api } from '../../lib/api';
import { useSchemaForm } from '../../lib/use-schema-form';

const FormSchema = InviteContactInputSchema.pick({ meeting_id: true });

function InviteForm({
  contact,
  options,
  onClose,
}: {
  contact: Contact;
  options: { value: string; label: string }[];
  onClose(): void;
}) {
  const { t } = useTranslation('contacts');
  const form = useSchemaForm(FormSchema, { defaultValues: { meeting_id: '' } });
  const meetingId = useWatch({ control: form.control, name: 'meeting_id' });
  const invite = useMutation({
    mutationFn: (values: z.output<typeof FormSchema>) =>
      api.call(peopleCalls.inviteContact, { ...values, id: contact.id }),
    onSuccess: (body) => {
      toast.success(body.message);
      onClose();
    },
  });
  return (
    <form noValidate onSubmit={form.handleSubmit((values) => invite.mutate(values))} className="space-y-4">
      <SelectField
        label={t('invite.meeting')}
        {...form.register('meeting_id')}
        options={[{ value: '', label: t('invite.choose') }, ...options]}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" disabled={!meetingId || !contact.email} isLoading={invite.isPending}>
          {t('invite.submit')}
        </Button>
      </div>
    </form>
  );
}

/** "Invite to meeting": one of the caller's upcoming meetings, chosen from a list. */
export function InviteDialog({ contact, onClose }: { contact: Contact | undefined; onClose(): void }) {
  const { t, i18n } = useTranslation('contacts');
  const meetings = useQuery({
    queryKey: ['meetings-to-invite'],
    queryFn: async ({ signal }) => (await api.call(peopleCalls.getMeetingsToInvite, {}, { signal })).data.data,
    enabled: contact !== undefined,
    staleTime: 0,
  });
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <Dialog
      open={contact !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={t('invite.title', { name: contact?.name ?? '' })}
      description={contact?.email ? t('invite.description', { email: contact.email }) : t('invite.no_email')}
    >
      {meetings.isPending && <Spinner className="size-5 text-primary-600" label={t('invite.loading')} />}
      {meetings.data && meetings.data.length === 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t('invite.none')}{' '}
          <Link to="/upcoming-mettings" className="font-semibold text-primary-700 underline dark:text-primary-300">
            {t('invite.schedule_link')}
          </Link>
        </p>
      )}
      {meetings.data && meetings.data.length > 0 && contact && (
        <InviteForm
          contact={contact}
          options={meetings.data.map((meeting) => ({
            value: String(meeting.id),
            label: `${meeting.name} — ${format.format(meeting.start_time * 1000)}`,
          }))}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}
