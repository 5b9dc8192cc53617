import type { ViewerChatMessage } from '@meetcast/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { MessageText } from './message-text';
import type { ModerationAction } from './viewer-chat-api';

/** `mm:ss` (or `h:mm:ss`) from the broadcast's start, for the replay. */
export function formatOffset(seconds: number) {
  const whole = Math.max(0, Math.floor(seconds));
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const pad = (value: number) => String(value).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** A number of seconds in the reader's language (Intl's units: nothing to translate). */
export function formatSeconds(language: string | undefined, seconds: number, display: 'short' | 'long' = 'short') {
  return new Intl.NumberFormat(language, { style: 'unit', unit: 'second', unitDisplay: display }).format(seconds);
}

export function MessageHeader({ message, isReplay }: { message: ViewerChatMessage; isReplay: boolean }) {
  const { t, i18n } = useTranslation('viewer-chat');
  const time = new Intl.DateTimeFormat(i18n.resolvedLanguage, { hour: '2-digit', minute: '2-digit' });
  return (
    <div className="flex flex-wrap items-baseline gap-x-2">
      <bdi className="font-semibold">{message.author.display_name}</bdi>
      {message.author.is_host && (
        <span className="rounded bg-primary-100 px-1.5 text-xs font-semibold text-primary-800 dark:bg-primary-900 dark:text-primary-100">
          {t('host')}
        </span>
      )}
      {message.author.kind === 'guest' && (
        <span className="text-xs text-slate-600 dark:text-slate-400">{t('guest')}</span>
      )}
      {isReplay ? (
        <span className="text-xs tabular-nums text-slate-600 dark:text-slate-400" dir="ltr">
          {formatOffset(message.offset_seconds)}
        </span>
      ) : (
        <time
          className="text-xs text-slate-600 dark:text-slate-400"
          dateTime={new Date(message.created_at * 1000).toISOString()}
        >
          {time.format(new Date(message.created_at * 1000))}
        </time>
      )}
    </div>
  );
}

/** One message; moderators get its actions behind a disclosure button (plain buttons, keyboard-usable). */
export function MessageItem({
  message,
  isReplay,
  isPinned,
  canModerate,
  isLive,
  onModerate,
}: {
  message: ViewerChatMessage;
  isReplay: boolean;
  isPinned: boolean;
  canModerate: boolean;
  isLive: boolean;
  onModerate: (action: ModerationAction) => void;
}) {
  const { t } = useTranslation('viewer-chat');
  const [isOpen, setIsOpen] = useState(false);
  const actionsId = useId();
  const act = (action: ModerationAction) => {
    setIsOpen(false);
    onModerate(action);
  };
  return (
    <li className="text-sm" data-message-id={message.id}>
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <MessageHeader message={message} isReplay={isReplay} />
          <MessageText text={message.text} />
        </div>
        {canModerate && (
          <button
            type="button"
            aria-expanded={isOpen}
            aria-controls={actionsId}
            aria-label={t('actions_for', { name: message.author.display_name })}
            onClick={() => setIsOpen((open) => !open)}
            className="shrink-0 rounded px-2 text-lg leading-6 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary-500 dark:text-slate-300 dark:hover:bg-slate-800"
          >
            ⋯
          </button>
        )}
      </div>
      {canModerate && isOpen && (
        <div id={actionsId} role="group" aria-label={t('actions')} className="mt-1 flex flex-wrap gap-1">
          <Button
            size="sm"
            variant="secondary"
            onClick={() => act({ kind: 'pin', id: isPinned ? undefined : message.id })}
          >
            {isPinned ? t('unpin') : t('pin')}
          </Button>
          {isLive && (
            <Button size="sm" variant="secondary" onClick={() => act({ kind: 'banner', id: message.id })}>
              {t('show_on_stream')}
            </Button>
          )}
          <Button size="sm" variant="secondary" onClick={() => act({ kind: 'delete', id: message.id })}>
            {t('delete')}
          </Button>
          {!message.author.is_host && (
            <>
              <Button size="sm" variant="secondary" onClick={() => act({ kind: 'timeout', id: message.id })}>
                {t('timeout')}
              </Button>
              <Button size="sm" variant="danger" onClick={() => act({ kind: 'ban', id: message.id })}>
                {t('ban')}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => act({ kind: 'unban', id: message.id })}>
                {t('unban')}
              </Button>
            </>
          )}
        </div>
      )}
    </li>
  );
}
