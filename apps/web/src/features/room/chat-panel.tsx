import { ROOM_CHAT_TEXT_MAX, RoomChatTextSchema, type ChatMessage } from '@meetcast/contracts';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../components/button';
import { useSchemaForm } from '../../lib/use-schema-form';

/** An empty line is not sent (and says nothing). */
const FormSchema = z.object({ text: RoomChatTextSchema });

const URL_PATTERN = /(https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]])/g;

/** Chat text is shown as text; only http(s) addresses become links. Never HTML. */
export function linkify(text: string): ReactNode[] {
  return text.split(URL_PATTERN).map((part, index) =>
    index % 2 === 1 ? (
      <a
        key={index}
        href={part}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="break-all text-primary-600 underline dark:text-primary-300"
      >
        {part}
      </a>
    ) : (
      part
    ),
  );
}

export function ChatPanel({
  messages,
  selfId,
  onSend,
}: {
  messages: ChatMessage[];
  selfId: string | undefined;
  onSend: (text: string) => Promise<boolean>;
}) {
  const { t, i18n } = useTranslation('room');
  const form = useSchemaForm(FormSchema, { defaultValues: { text: '' } });
  const error = form.formState.errors.root?.message;
  const listRef = useRef<HTMLOListElement>(null);
  const inputId = useId();
  const time = new Intl.DateTimeFormat(i18n.resolvedLanguage, { hour: '2-digit', minute: '2-digit' });

  useEffect(() => {
    listRef.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  }, [messages.length]);

  const onSubmit = form.handleSubmit(async ({ text }) => {
    if (await onSend(text)) form.reset({ text: '' });
    else form.setError('root', { message: t('chat.not_sent') });
  });

  return (
    <section aria-label={t('chat.title')} className="flex h-full min-h-0 flex-col">
      <h2 className="border-b border-slate-200 px-4 py-3 font-semibold dark:border-slate-700">{t('chat.title')}</h2>
      <ol ref={listRef} aria-live="polite" className="min-h-0 flex-1 space-y-3 overflow-y-auto px-4 py-3">
        {messages.length === 0 && <li className="text-sm text-slate-500 dark:text-slate-400">{t('chat.empty')}</li>}
        {messages.map((message) => (
          <li key={message.id} className="text-sm">
            <div className="flex items-baseline gap-2">
              {/* Isolated: a name's right-to-left letters must not pull the time into their order. */}
              <bdi className="font-semibold">
                {message.participant_id === selfId ? t('tile.you') : message.display_name}
              </bdi>
              <time
                className="text-xs text-slate-500 dark:text-slate-400"
                dateTime={new Date(message.created_at * 1000).toISOString()}
              >
                {time.format(new Date(message.created_at * 1000))}
              </time>
            </div>
            <p className="whitespace-pre-wrap break-words" dir="auto">
              {linkify(message.text)}
            </p>
          </li>
        ))}
      </ol>
      <form onSubmit={(event) => void onSubmit(event)} className="border-t border-slate-200 p-3 dark:border-slate-700">
        <label htmlFor={inputId} className="sr-only">
          {t('chat.message')}
        </label>
        <div className="flex gap-2">
          <input
            id={inputId}
            maxLength={ROOM_CHAT_TEXT_MAX}
            dir="auto"
            autoComplete="off"
            placeholder={t('chat.placeholder')}
            {...form.register('text')}
            className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900"
          />
          <Button type="submit" size="md">
            {t('chat.send')}
          </Button>
        </div>
        {error && (
          <p role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
