import { PostViewerChatInputSchema, VIEWER_CHAT_LIMITS, type ViewerChatState } from '@meetcast/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../components/button';
import { ApiError } from '../../lib/api';
import { useSchemaForm } from '../../lib/use-schema-form';
import { formatSeconds } from './message-item';
import { rememberGuestName, storedGuestName } from './viewer-chat-api';

const FIELD =
  'min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100';

/** A guest must give a name; an account posts under its username (an empty line is not sent either way). */
const GuestMessageSchema = PostViewerChatInputSchema.pick({ text: true, display_name: true }).required();
const AccountMessageSchema = GuestMessageSchema.extend({ display_name: z.string().transform(() => undefined) });

/** Where a viewer writes: guests also give the name they chat under (remembered in this browser). */
export function ChatComposer({
  state,
  onSend,
}: {
  state: ViewerChatState;
  onSend: (text: string, displayName: string | undefined) => Promise<void>;
}) {
  const { t, i18n } = useTranslation('viewer-chat');
  const { self } = state;
  const form = useSchemaForm(self.is_guest ? GuestMessageSchema : AccountMessageSchema, {
    defaultValues: { text: '', display_name: storedGuestName() },
  });
  const { errors, isSubmitting } = form.formState;
  const error = errors.display_name ? t('name_required') : errors.root?.message;
  const messageId = useId();
  const nameId = useId();
  const errorId = useId();

  if (self.is_banned) return <Notice text={t('banned')} />;
  // The server only reports a time-out that is still running when the chat was read.
  if (self.muted_until) return <Notice text={t('muted')} />;

  const onSubmit = form.handleSubmit(async ({ text, display_name: displayName }) => {
    try {
      await onSend(text, displayName);
      if (displayName) rememberGuestName(displayName);
      form.resetField('text');
    } catch (failure) {
      form.setError('root', { message: failure instanceof ApiError ? failure.message : t('not_sent') });
    }
  });

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      className="space-y-2 border-t border-slate-200 p-3 dark:border-slate-700"
    >
      {self.is_guest && (
        <div className="flex flex-col gap-1">
          <label htmlFor={nameId} className="text-xs font-medium text-slate-700 dark:text-slate-300">
            {t('display_name')}
          </label>
          <input
            id={nameId}
            maxLength={VIEWER_CHAT_LIMITS.displayName}
            dir="auto"
            autoComplete="nickname"
            {...form.register('display_name')}
            className={FIELD}
          />
        </div>
      )}
      <label htmlFor={messageId} className="sr-only">
        {t('message')}
      </label>
      <div className="flex gap-2">
        <input
          id={messageId}
          maxLength={VIEWER_CHAT_LIMITS.text}
          dir="auto"
          autoComplete="off"
          placeholder={t('placeholder')}
          aria-describedby={error ? errorId : undefined}
          {...form.register('text')}
          className={`${FIELD} flex-1`}
        />
        <Button type="submit" size="md" isLoading={isSubmitting}>
          {t('send')}
        </Button>
      </div>
      {state.slow_mode_seconds > 0 && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {t('slow_mode_on', { duration: formatSeconds(i18n.resolvedLanguage, state.slow_mode_seconds, 'long') })}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </form>
  );
}

function Notice({ text }: { text: string }) {
  return (
    <p
      role="status"
      className="border-t border-slate-200 p-3 text-sm text-slate-700 dark:border-slate-700 dark:text-slate-300"
    >
      {text}
    </p>
  );
}
