import { ChangePasswordInputSchema, peopleCalls, type Profile } from '@meetcast/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SIGN_IN_METHODS_QUERY_KEY } from '../auth';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { Button } from '../../components/button';
import { Panel } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { useSchemaForm } from '../../lib/use-schema-form';
import { PROFILE_KEY } from './use-profile';
import { SESSIONS_KEY } from './sessions-section';

const currentPassword = ChangePasswordInputSchema.shape.current_password.unwrap();

/** The call's fields plus the repeated password; the current one is required only when there is one. */
const passwordForm = (hasPassword: boolean) =>
  z
    .object({
      current_password: hasPassword ? currentPassword.min(1) : currentPassword,
      password: ChangePasswordInputSchema.shape.password,
      confirmation: z.string(),
    })
    .refine((values) => values.password === values.confirmation, { path: ['confirmation'] });

const EMPTY = { current_password: '', password: '', confirmation: '' };

/** Change the password (or set a first one after external sign-in); every other session ends. */
export function PasswordSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const queryClient = useQueryClient();
  const schema = useMemo(() => passwordForm(profile.has_password), [profile.has_password]);
  const form = useSchemaForm(schema, { defaultValues: EMPTY });
  const { errors } = form.formState;
  const change = useMutation({
    mutationFn: (values: z.output<ReturnType<typeof passwordForm>>) =>
      api.call(peopleCalls.changePassword, {
        current_password: profile.has_password ? values.current_password : undefined,
        password: values.password,
      }),
    onSuccess: (body) => {
      toast.success(body.message);
      form.reset(EMPTY);
      void queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: SIGN_IN_METHODS_QUERY_KEY });
    },
  });
  return (
    <Panel
      title={profile.has_password ? t('password.title') : t('password.set_title')}
      description={profile.has_password ? t('password.subtitle') : t('password.set_subtitle')}
    >
      <form noValidate className="space-y-4" onSubmit={form.handleSubmit((values) => change.mutate(values))}>
        {profile.has_password && (
          <TextField
            label={t('password.current')}
            type="password"
            autoComplete="current-password"
            error={errors.current_password && t('password.current_error')}
            {...form.register('current_password')}
          />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('password.new')}
            type="password"
            autoComplete="new-password"
            hint={t('password.rules')}
            error={errors.password && t('password.rules')}
            {...form.register('password')}
          />
          <TextField
            label={t('password.confirm')}
            type="password"
            autoComplete="new-password"
            error={errors.confirmation && t('password.mismatch')}
            {...form.register('confirmation')}
          />
        </div>
        <div className="flex justify-end">
          <Button type="submit" isLoading={change.isPending}>
            {profile.has_password ? t('password.submit') : t('password.set_submit')}
          </Button>
        </div>
      </form>
    </Panel>
  );
}
