import { zodResolver } from '@hookform/resolvers/zod';
import { accountCalls, SignupInputSchema } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { EmailField, NewPasswordField } from './auth-fields';
import { AuthCard, LINK_CLASSES } from './auth-card';
import { ExternalSignInButton } from './external-sign-in-button';
import { fieldError } from './field-error';

const FormSchema = SignupInputSchema.pick({ username: true, email: true, password: true });
type FormInput = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;

export default function SignupPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(FormSchema),
    defaultValues: { username: '', email: '', password: '' },
  });
  const signup = useMutation({
    mutationFn: (values: FormOutput) =>
      api.call(accountCalls.signup, values, { withToken: false }).then((body) => ({
        body,
        email: values.email,
      })),
    onSuccess: ({ body, email }) => {
      toast.success(body.message);
      void navigate(`/confirm-signup?email=${encodeURIComponent(email)}`);
    },
  });
  const { errors } = form.formState;

  return (
    <AuthCard
      title={t('signup.title')}
      subtitle={t('signup.subtitle')}
      footer={
        <>
          {t('signup.have_account')}{' '}
          <Link to="/login" className={LINK_CLASSES}>
            {t('signup.sign_in')}
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={form.handleSubmit((values) => signup.mutate(values))} className="space-y-5">
        <TextField
          label={t('fields.username')}
          autoComplete="name"
          error={fieldError(t, 'username', errors.username)}
          {...form.register('username')}
        />
        <EmailField error={fieldError(t, 'email', errors.email)} {...form.register('email')} />
        <NewPasswordField
          label={t('fields.password')}
          error={fieldError(t, 'password', errors.password)}
          {...form.register('password')}
        />
        <Button type="submit" size="lg" className="w-full" isLoading={signup.isPending}>
          {t('signup.submit')}
        </Button>
      </form>
      <ExternalSignInButton />
    </AuthCard>
  );
}
