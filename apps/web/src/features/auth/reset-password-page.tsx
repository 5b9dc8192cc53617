import { zodResolver } from '@hookform/resolvers/zod';
import { accountCalls, ResetPasswordInputSchema } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { BackToLoginLink, CodeField, EmailField, NewPasswordField } from './auth-fields';
import { AuthCard } from './auth-card';
import { fieldError } from './field-error';

const FormSchema = ResetPasswordInputSchema.pick({ email: true, code: true, password: true })
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, { path: ['confirmPassword'] });
type FormInput = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;

export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(FormSchema),
    defaultValues: { email: params.get('email') ?? '', code: '', password: '', confirmPassword: '' },
  });
  const reset = useMutation({
    mutationFn: ({ email, code, password }: FormOutput) =>
      api.call(accountCalls.resetPassword, { email, code, password }, { withToken: false }),
    onSuccess: (body) => {
      toast.success(body.message);
      void navigate('/login', { replace: true });
    },
  });
  const { errors } = form.formState;

  return (
    <AuthCard title={t('reset.title')} subtitle={t('reset.subtitle')} footer={<BackToLoginLink />}>
      <form noValidate onSubmit={form.handleSubmit((values) => reset.mutate(values))} className="space-y-5">
        <EmailField error={fieldError(t, 'email', errors.email)} {...form.register('email')} />
        <CodeField error={fieldError(t, 'code', errors.code)} {...form.register('code')} />
        <NewPasswordField error={fieldError(t, 'password', errors.password)} {...form.register('password')} />
        <TextField
          label={t('fields.confirm_password')}
          type="password"
          autoComplete="new-password"
          error={fieldError(t, 'confirmPassword', errors.confirmPassword)}
          {...form.register('confirmPassword')}
        />
        <Button type="submit" size="lg" className="w-full" isLoading={reset.isPending}>
          {t('reset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
