import { DownloadIcon } from 'lucide-react';
import { DeleteAccountInputSchema, peopleCalls, type Profile } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { Panel } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { clearSessionCookies } from '../../lib/session-cookie';
import { useSchemaForm } from '../../lib/use-schema-form';

/** The password, or for an account without one its e-mail address, typed to confirm. */
const deleteForm = (hasPassword: boolean) =>
  z.object({
    secret: (hasPassword ? DeleteAccountInputSchema.shape.password : DeleteAccountInputSchema.shape.confirm_email)
      .unwrap()
      .min(1),
  });

function DeleteAccountDialog({
  profile,
  open,
  onOpenChange,
}: {
  profile: Profile;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { t } = useTranslation('profile');
  const schema = useMemo(() => deleteForm(profile.has_password), [profile.has_password]);
  const form = useSchemaForm(schema, { defaultValues: { secret: '' } });
  const { errors } = form.formState;
  const remove = useMutation({
    mutationFn: ({ secret }: z.output<typeof schema>) =>
      api.call(peopleCalls.deleteAccount, profile.has_password ? { password: secret } : { confirm_email: secret }),
    meta: { silent: true },
    onSuccess: (body) => {
      toast.success(body.message);
      clearSessionCookies();
      // A full load: every cached query of the deleted account goes with the page.
      window.location.assign('/login');
    },
    onError: (failure) => form.setError('secret', { type: 'server', message: failure.message }),
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        form.reset({ secret: '' });
        onOpenChange(next);
      }}
      title={t('delete.title')}
      description={t('delete.warning')}
    >
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit((values) => remove.mutate(values))}>
        <TextField
          label={profile.has_password ? t('delete.password') : t('delete.type_email', { email: profile.email })}
          type={profile.has_password ? 'password' : 'email'}
          autoComplete={profile.has_password ? 'current-password' : 'off'}
          error={
            errors.secret &&
            (errors.secret.type === 'server'
              ? errors.secret.message
              : profile.has_password
                ? t('delete.password_required')
                : t('delete.email_required'))
          }
          {...form.register('secret')}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" variant="danger" isLoading={remove.isPending}>
            {t('delete.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Download everything kept about me; delete the account. */
export function DataSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const [isDeleting, setIsDeleting] = useState(false);
  const download = useMutation({
    mutationFn: () => api.call(peopleCalls.exportMyData, {}),
    onSuccess: (body) =>
      downloadFile(body.data.filename, JSON.stringify(body.data.data, null, 2), 'application/json;charset=utf-8'),
  });
  return (
    <Panel title={t('data.title')} description={t('data.subtitle')}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <Button variant="secondary" isLoading={download.isPending} onClick={() => download.mutate()}>
          <DownloadIcon className="size-4" />
          {t('data.download')}
        </Button>
        <Button variant="danger" onClick={() => setIsDeleting(true)}>
          {t('delete.open')}
        </Button>
      </div>
      <DeleteAccountDialog profile={profile} open={isDeleting} onOpenChange={setIsDeleting} />
    </Panel>
  );
}
