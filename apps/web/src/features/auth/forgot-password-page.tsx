import { zodResolver } from '@hookform/resolvers/zod';
import { accountCalls, ForgotPasswordInputSchema } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { Button } from '../../components/button';
import { api } from '../../lib/api';
import { BackToLoginLink, EmailField } from './auth-fields';
import { AuthCard, LINK_CLASSES } from './auth-card';
import { fieldError } from './field-error';

const FormSchema = ForgotPasswordInputSchema.pick({ email: true });
type FormInput = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;

export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(FormSchema),
    defaultValues: { email: '' },
  });
  const request = useMutation({
    mutationFn: (values: FormOutput) =>
      api.call(accountCalls.forgotPassword, values, { withToken: false }).then((body) => ({
        body,
        email: values.email,
      })),
    onSuccess: ({ body, email }) => {
      toast.success(body.message);
      void navigate(`/reset-password?email=${encodeURIComponent(email)}`);
    },
  });

  return (
    <AuthCard title={t('forgot.title')} subtitle={t('forgot.subtitle')} footer={<BackToLoginLink />}>
      <form noValidate onSubmit={form.handleSubmit((values) => request.mutate(values))} className="space-y-5">
        <EmailField error={fieldError(t, 'email', form.formState.errors.email)} {...form.register('email')} />
        <Button type="submit" size="lg" className="w-full" isLoading={request.isPending}>
          {t('forgot.submit')}
        </Button>
        <p className="text-center text-sm text-slate-600 dark:text-slate-400">
          {t('forgot.have_code')}{' '}
          <Link to="/reset-password" className={LINK_CLASSES}>
            {t('forgot.enter_code')}
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
