import { zodResolver } from '@hookform/resolvers/zod';
import { accountCalls, ConfirmSignupInputSchema } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { Button } from '../../components/button';
import { api } from '../../lib/api';
import { BackToLoginLink, CodeField, EmailField } from './auth-fields';
import { AuthCard, LINK_CLASSES } from './auth-card';
import { fieldError } from './field-error';
import { useSignInSuccess } from './use-sign-in-success';

const FormSchema = ConfirmSignupInputSchema.pick({ email: true, code: true });
type FormInput = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;
const EmailOnlySchema = ConfirmSignupInputSchema.pick({ email: true });

export default function ConfirmSignupPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const onSignedIn = useSignInSuccess();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(FormSchema),
    defaultValues: { email: params.get('email') ?? '', code: '' },
  });
  const confirm = useMutation({
    mutationFn: (values: FormOutput) => api.call(accountCalls.confirmSignup, values, { withToken: false }),
    onSuccess: onSignedIn,
  });
  const resend = useMutation({
    mutationFn: (email: string) => api.call(accountCalls.resendSignupCode, { email }, { withToken: false }),
    onSuccess: (body) => toast.success(body.message),
  });
  const onResend = () => {
    const parsed = EmailOnlySchema.safeParse({ email: form.getValues('email') });
    if (!parsed.success) {
      form.setError('email', { type: 'invalid_format' }, { shouldFocus: true });
      return;
    }
    resend.mutate(parsed.data.email);
  };
  const { errors } = form.formState;

  return (
    <AuthCard title={t('confirm.title')} subtitle={t('confirm.subtitle')} footer={<BackToLoginLink />}>
      <form noValidate onSubmit={form.handleSubmit((values) => confirm.mutate(values))} className="space-y-5">
        <EmailField error={fieldError(t, 'email', errors.email)} {...form.register('email')} />
        <CodeField error={fieldError(t, 'code', errors.code)} {...form.register('code')} />
        <Button type="submit" size="lg" className="w-full" isLoading={confirm.isPending}>
          {t('confirm.submit')}
        </Button>
        <p className="text-center text-sm text-slate-600 dark:text-slate-400">
          {t('confirm.no_code')}{' '}
          <button type="button" onClick={onResend} disabled={resend.isPending} className={LINK_CLASSES}>
            {t('confirm.resend')}
          </button>
        </p>
      </form>
    </AuthCard>
  );
}
