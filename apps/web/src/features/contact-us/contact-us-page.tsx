import { CheckIcon } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { peopleCalls, ContactUsInputSchema } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { TextAreaField } from '../../components/form-controls';
import { PageHeader } from '../../components/page-header';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { useCurrentUser } from '../session';

const FormSchema = ContactUsInputSchema.pick({ name: true, email: true, subject: true, message: true, website: true });
type FormInput = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;

export default function ContactUsPage() {
  const { t } = useTranslation('contact-us');
  const user = useCurrentUser();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(FormSchema),
    defaultValues: { name: user?.username ?? '', email: user?.email ?? '', subject: '', message: '', website: '' },
  });
  const { errors } = form.formState;
  const send = useMutation({ mutationFn: (values: FormOutput) => api.call(peopleCalls.contactUs, values) });

  if (send.isSuccess) {
    return (
      <section className="mx-auto max-w-2xl">
        <EmptyState
          icon={CheckIcon}
          title={t('sent_title')}
          text={send.data.message}
          action={
            <Button
              variant="secondary"
              onClick={() => {
                form.reset({ ...form.getValues(), subject: '', message: '' });
                send.reset();
              }}
            >
              {t('another')}
            </Button>
          }
        />
      </section>
    );
  }

  return (
    <section className="mx-auto max-w-2xl">
      <PageHeader title={t('title')} description={t('subtitle')} />
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => send.mutate(values))}
        className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('fields.name')}
            autoComplete="name"
            error={errors.name && t('errors.name')}
            {...form.register('name')}
          />
          <TextField
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            error={errors.email && t('errors.email')}
            {...form.register('email')}
          />
        </div>
        <TextField
          label={t('fields.subject')}
          error={errors.subject && t('errors.subject')}
          {...form.register('subject')}
        />
        <TextAreaField
          label={t('fields.message')}
          rows={6}
          error={errors.message && t('errors.message')}
          {...form.register('message')}
        />
        {/* Hidden from people (and from screen readers); bots that fill every field fill this one too. */}
        <div aria-hidden="true" className="absolute -start-[10000px] h-px w-px overflow-hidden">
          <label>
            {t('fields.website')}
            <input type="text" tabIndex={-1} autoComplete="off" {...form.register('website')} />
          </label>
        </div>
        <p className="text-xs text-slate-600 dark:text-slate-400">{t('privacy')}</p>
        <div className="flex justify-end">
          <Button type="submit" size="lg" isLoading={send.isPending}>
            {t('submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}
