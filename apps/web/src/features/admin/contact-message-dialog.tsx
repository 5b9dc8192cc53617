import {
  adminCalls,
  AdminReplyContactInputSchema,
  CONTACT_MESSAGE_STATUSES,
  type AdminContactMessage,
  type ContactMessageStatus,
} from '@meetcast/contracts';
import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { cn } from '../../lib/cn';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useAdminAction } from './admin-api';
import { INPUT_CLASSES } from './admin-table';
import { useFormat } from './format';
import type { PendingConfirmation } from './parts';

interface ContactMessageDialogProps {
  message: AdminContactMessage | null;
  onClose: () => void;
  confirm: (pending: PendingConfirmation) => void;
}

const REPLY_LIMIT = 10_000;
const ReplySchema = AdminReplyContactInputSchema.pick({ subject: true, message: true });

/** A Contact Us message: read it, set its status, answer it by e-mail, or delete it. */
export function ContactMessageDialog({ message, onClose, confirm }: ContactMessageDialogProps) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  return (
    <Dialog
      open={message !== null}
      onOpenChange={(open) => !open && onClose()}
      title={message?.subject ?? ''}
      description={
        message
          ? t('contacts.from', { name: message.name, email: message.email, date: format.dateTime(message.created_at) })
          : undefined
      }
      className="max-w-2xl"
    >
      {message && <MessageBody key={message.id} message={message} onClose={onClose} confirm={confirm} />}
    </Dialog>
  );
}

function MessageBody({ message, onClose, confirm }: ContactMessageDialogProps & { message: AdminContactMessage }) {
  const { t } = useTranslation('admin');
  const ids = { status: useId(), subject: useId(), reply: useId() };
  const update = useAdminAction(adminCalls.updateContactMessage);
  const reply = useAdminAction(adminCalls.replyContactMessage);
  const remove = useAdminAction(adminCalls.deleteContactMessage);
  const form = useSchemaForm(ReplySchema, {
    defaultValues: { subject: t('contacts.reply_subject', { subject: message.subject }), message: '' },
  });
  const text = useWatch({ control: form.control, name: 'message' });
  const [status, setStatus] = useState<ContactMessageStatus>(message.status);

  const onReply = form.handleSubmit(async (values) => {
    await reply.mutateAsync({ ...values, id: message.id });
    form.resetField('message');
    setStatus('answered');
  });

  return (
    <div className="space-y-5">
      <p className="max-h-56 overflow-y-auto rounded-lg bg-slate-50 p-4 text-sm whitespace-pre-wrap text-slate-800 dark:bg-slate-800/60 dark:text-slate-200">
        {message.message}
      </p>

      <div className="flex flex-wrap items-end gap-3">
        <label
          htmlFor={ids.status}
          className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400"
        >
          {t('columns.status')}
          <select
            id={ids.status}
            value={status}
            disabled={update.isPending}
            onChange={(event) => {
              const next = event.target.value as ContactMessageStatus;
              update.mutate({ id: message.id, status: next }, { onSuccess: () => setStatus(next) });
            }}
            className={INPUT_CLASSES}
          >
            {CONTACT_MESSAGE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`contact_status.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <Button
          variant="danger"
          size="sm"
          className="ms-auto"
          onClick={() =>
            confirm({
              title: t('contacts.confirm.delete_title'),
              text: t('contacts.confirm.delete_text', { subject: message.subject }),
              confirmLabel: t('actions.delete'),
              isDanger: true,
              onConfirm: async () => {
                await remove.mutateAsync({ id: message.id });
                onClose();
              },
            })
          }
        >
          {t('actions.delete')}
        </Button>
      </div>

      <form
        className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-700"
        // A failed reply was already shown by its toast; the text stays for another try.
        onSubmit={(event) => void onReply(event).catch(() => undefined)}
      >
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">
          {t('contacts.reply_heading', { email: message.email })}
        </h3>
        <label htmlFor={ids.subject} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
          {t('contacts.columns.subject')}
        </label>
        <input id={ids.subject} maxLength={200} {...form.register('subject')} className={cn(INPUT_CLASSES, 'w-full')} />
        <label htmlFor={ids.reply} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
          {t('contacts.reply_label')}
        </label>
        <textarea
          id={ids.reply}
          required
          rows={6}
          maxLength={REPLY_LIMIT}
          {...form.register('message')}
          className={cn(INPUT_CLASSES, 'h-auto w-full py-2')}
        />
        <div className="flex justify-end">
          <Button type="submit" isLoading={reply.isPending} disabled={text.trim() === ''}>
            {t('contacts.send_reply')}
          </Button>
        </div>
      </form>
    </div>
  );
}
