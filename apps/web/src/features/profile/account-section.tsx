import { zodResolver } from '@hookform/resolvers/zod';
import {
  ConfirmEmailChangeInputSchema,
  peopleCalls,
  UpdateProfileInputSchema,
  type Profile,
} from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { Button } from '../../components/button';
import { Panel } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useApplyProfile } from './use-profile';

const FormSchema = z.object({
  username: UpdateProfileInputSchema.shape.username.unwrap(),
  email: UpdateProfileInputSchema.shape.email.unwrap(),
});
type FormInput = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;

const CodeFormSchema = ConfirmEmailChangeInputSchema.pick({ code: true });

function EmailCodeForm({ pendingEmail }: { pendingEmail: string }) {
  const { t } = useTranslation('profile');
  const apply = useApplyProfile();
  const form = useSchemaForm(CodeFormSchema, { defaultValues: { code: '' } });
  const error = form.formState.errors.code && t('account.code_error');
  const confirm = useMutation({
    mutationFn: (values: z.output<typeof CodeFormSchema>) => api.call(peopleCalls.confirmEmailChange, values),
    onSuccess: (body) => {
      toast.success(body.message);
      form.reset({ code: '' });
      apply(body.data.data);
    },
  });
  return (
    <form
      noValidate
      className="mt-5 space-y-3 rounded-xl border border-primary-200 bg-primary-50 p-4 dark:border-primary-900 dark:bg-primary-950/40"
      onSubmit={form.handleSubmit((values) => confirm.mutate(values))}
    >
      <p className="text-sm text-slate-800 dark:text-slate-200">{t('account.pending', { email: pendingEmail })}</p>
      <div className="flex flex-wrap items-end gap-2">
        <TextField
          className="w-48"
          label={t('account.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          error={error}
          {...form.register('code')}
        />
        <Button type="submit" isLoading={confirm.isPending} className={error ? 'mb-6' : ''}>
          {t('account.confirm')}
        </Button>
      </div>
    </form>
  );
}

/** Username and e-mail; a new address counts only after the code mailed to it comes back. */
export function AccountSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const apply = useApplyProfile();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(FormSchema),
    defaultValues: { username: profile.username, email: profile.email },
  });
  const { errors } = form.formState;
  useEffect(() => form.reset({ username: profile.username, email: profile.email }), [profile, form]);

  const save = useMutation({
    mutationFn: (values: FormOutput) =>
      api.call(peopleCalls.updateProfile, {
        username: values.username,
        email: values.email === profile.email ? undefined : values.email,
      }),
    onSuccess: (body) => {
      toast.success(body.message);
      apply(body.data.data);
    },
  });

  return (
    <Panel title={t('account.title')} description={t('account.subtitle')}>
      <form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('account.username')}
            autoComplete="username"
            error={errors.username && t('account.username_error')}
            {...form.register('username')}
          />
          <TextField
            label={t('account.email')}
            type="email"
            autoComplete="email"
            hint={t('account.email_hint')}
            error={errors.email && t('account.email_error')}
            {...form.register('email')}
          />
        </div>
        <div className="flex justify-end">
          <Button type="submit" isLoading={save.isPending}>
            {t('actions.save')}
          </Button>
        </div>
      </form>
      {profile.pending_email && <EmailCodeForm pendingEmail={profile.pending_email} />}
    </Panel>
  );
}
