import { zodResolver } from '@hookform/resolvers/zod';
import { peopleCalls, AddContactInputSchema, type Contact } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { Button } from '../../components/button';
import { Dialog, DialogClose } from '../../components/dialog';
import { TextAreaField } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { api } from '../../lib/api';
import { useRefreshContacts } from './use-contacts';

const FormSchema = AddContactInputSchema.pick({ name: true, email: true, phone: true, company: true, notes: true });
type FormInput = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;

const EMPTY: FormInput = { name: '', email: '', phone: '', company: '', notes: '' };

/** Add a contact, or edit one when `contact` is given. */
export function ContactDialog({
  open,
  onOpenChange,
  contact,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  contact?: Contact | undefined;
}) {
  const { t } = useTranslation('contacts');
  const refresh = useRefreshContacts();
  const form = useForm<FormInput, unknown, FormOutput>({ resolver: zodResolver(FormSchema), defaultValues: EMPTY });
  const { errors } = form.formState;

  useEffect(() => {
    if (!open) return;
    form.reset(
      contact
        ? {
            name: contact.name,
            email: contact.email ?? '',
            phone: contact.phone,
            company: contact.company,
            notes: contact.notes,
          }
        : EMPTY,
    );
  }, [open, contact, form]);

  const save = useMutation({
    mutationKey: ['contact-form'],
    mutationFn: (values: FormOutput) =>
      contact
        ? api.call(peopleCalls.updateContact, { ...values, id: contact.id })
        : api.call(peopleCalls.addContact, values),
    onSuccess: (body) => {
      toast.success(body.message);
      void refresh();
      onOpenChange(false);
    },
  });

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      isDirty={form.formState.isDirty}
      title={contact ? t('dialog.edit_title') : t('dialog.add_title')}
      description={t('dialog.description')}
    >
      <form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))} className="space-y-4">
        <TextField
          label={t('fields.name')}
          autoComplete="off"
          error={errors.name && t('errors.name')}
          {...form.register('name')}
        />
        <TextField
          label={t('fields.email')}
          type="email"
          autoComplete="off"
          error={errors.email && t('errors.email')}
          {...form.register('email')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('fields.phone')}
            type="tel"
            autoComplete="off"
            error={errors.phone && t('errors.phone')}
            {...form.register('phone')}
          />
          <TextField
            label={t('fields.company')}
            autoComplete="off"
            error={errors.company && t('errors.company')}
            {...form.register('company')}
          />
        </div>
        <TextAreaField
          label={t('fields.notes')}
          rows={3}
          error={errors.notes && t('errors.notes')}
          {...form.register('notes')}
        />
        <div className="flex justify-end gap-2 pt-2">
          <DialogClose>{t('actions.cancel')}</DialogClose>
          <Button type="submit" isLoading={save.isPending}>
            {contact ? t('actions.save') : t('actions.add')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
