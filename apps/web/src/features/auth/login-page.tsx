import { zodResolver } from '@hookform/resolvers/zod';
import { accountCalls, LoginInputSchema } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { EmailField } from './auth-fields';
import { AuthCard, LINK_CLASSES } from './auth-card';
import { ExternalSignInButton } from './external-sign-in-button';
import { fieldError } from './field-error';
import { useSignInSuccess } from './use-sign-in-success';

const FormSchema = LoginInputSchema.pick({ email: true, password: true });
type FormInput = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const onSignedIn = useSignInSuccess();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(FormSchema),
    defaultValues: { email: '', password: '' },
  });
  const login = useMutation({
    mutationFn: (values: FormOutput) => api.call(accountCalls.login, values, { withToken: false }),
    onSuccess: onSignedIn,
  });
  const { errors } = form.formState;

  return (
    <AuthCard
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      footer={
        <>
          {t('login.no_account')}{' '}
          <Link to="/signup" className={LINK_CLASSES}>
            {t('login.create_account')}
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={form.handleSubmit((values) => login.mutate(values))} className="space-y-5">
        <EmailField error={fieldError(t, 'email', errors.email)} {...form.register('email')} />
        <div className="space-y-2">
          <TextField
            label={t('fields.password')}
            type="password"
            autoComplete="current-password"
            error={fieldError(t, 'currentPassword', errors.password)}
            {...form.register('password')}
          />
          <div className="text-end text-sm">
            <Link to="/forgot-password" className={LINK_CLASSES}>
              {t('login.forgot')}
            </Link>
          </div>
        </div>
        <Button type="submit" size="lg" className="w-full" isLoading={login.isPending}>
          {t('login.submit')}
        </Button>
        <p className="text-center text-sm text-slate-600 dark:text-slate-400">
          {t('login.have_code')}{' '}
          <Link to="/confirm-signup" className={LINK_CLASSES}>
            {t('login.confirm_link')}
          </Link>
        </p>
      </form>
      <ExternalSignInButton />
    </AuthCard>
  );
}
