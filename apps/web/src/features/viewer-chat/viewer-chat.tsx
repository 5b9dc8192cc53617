import { VIEWER_CHAT_LIMITS, type ViewerChatState } from '@meetcast/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Button } from '../../components/button';
import { ApiError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { ChatComposer } from './chat-composer';
import { formatSeconds, MessageHeader, MessageItem } from './message-item';
import { MessageText } from './message-text';
import { useViewerChat } from './use-viewer-chat';
import {
  ensureViewerToken,
  moderate,
  postViewerChat,
  storedViewerToken,
  viewerChatKey,
  type ChatCredentials,
  type ModerationAction,
} from './viewer-chat-api';

const SLOW_MODE_CHOICES = [0, 5, 30, 60, 300] as const;

export interface ViewerChatProps extends ChatCredentials {
  /** Seconds into the recording: a replay shows the messages said until then. Without it, all. */
  replayTime?: number;
  className?: string;
}

/**
 * A broadcast's viewer chat: on the public channel page for the audience, and in the meeting room
 * for its hosts (with their room grant). Shows nothing when the meeting has no broadcast or its chat
 * is not public.
 */
export function ViewerChat({ replayTime, className, ...credentials }: ViewerChatProps) {
  const { t } = useTranslation('viewer-chat');
  const queryClient = useQueryClient();
  const [viewerToken, setViewerToken] = useState(storedViewerToken);
  const chat = useViewerChat(credentials, viewerToken);
  const state = chat.data;
  if (!state) return null;

  const onSend = async (text: string, displayName: string | undefined) => {
    if (displayName !== undefined && !viewerToken) setViewerToken(await ensureViewerToken());
    const message = await postViewerChat(credentials, text, displayName);
    queryClient.setQueryData<ViewerChatState | null>(viewerChatKey(credentials.meetId), (current) =>
      current && !current.messages.some((known) => known.id === message.id)
        ? { ...current, messages: [...current.messages, message].slice(-VIEWER_CHAT_LIMITS.liveHistory) }
        : current,
    );
  };
  const onModerate = (action: ModerationAction) => {
    moderate(credentials, action).then(
      (message) => {
        toast.success(message);
        void queryClient.invalidateQueries({ queryKey: viewerChatKey(credentials.meetId) });
      },
      (error: unknown) => toast.error(error instanceof ApiError ? error.message : t('not_sent')),
    );
  };
  const isReplay = !state.is_open;
  const shown =
    isReplay && replayTime !== undefined
      ? state.messages.filter((message) => message.offset_seconds <= replayTime)
      : state.messages;

  return (
    <section
      aria-label={t('title')}
      data-viewer-chat=""
      className={cn(
        'flex min-h-0 flex-col rounded-xl border border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
        className,
      )}
    >
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-700">
        <h2 className="font-semibold">{isReplay ? t('replay_title') : t('title')}</h2>
        {state.can_moderate && state.is_open && <ModeratorBar state={state} onModerate={onModerate} />}
      </header>
      {state.pinned && (
        <div
          role="note"
          aria-label={t('pinned')}
          className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm dark:border-amber-800 dark:bg-amber-950"
        >
          <p className="text-xs font-semibold uppercase text-amber-900 dark:text-amber-200">{t('pinned')}</p>
          <MessageHeader message={state.pinned} isReplay={isReplay} />
          <MessageText text={state.pinned.text} />
        </div>
      )}
      <MessageList messages={shown} state={state} isReplay={isReplay} onModerate={onModerate} />
      {state.is_open ? (
        <ChatComposer state={state} onSend={onSend} />
      ) : (
        <p className="border-t border-slate-200 p-3 text-sm text-slate-700 dark:border-slate-700 dark:text-slate-300">
          {t('closed')}
        </p>
      )}
    </section>
  );
}

function MessageList({
  messages,
  state,
  isReplay,
  onModerate,
}: {
  messages: ViewerChatState['messages'];
  state: ViewerChatState;
  isReplay: boolean;
  onModerate: (action: ModerationAction) => void;
}) {
  const { t } = useTranslation('viewer-chat');
  const listRef = useRef<HTMLOListElement>(null);
  const lastId = messages.at(-1)?.id;
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [lastId]);
  return (
    <ol
      ref={listRef}
      aria-live={isReplay ? 'off' : 'polite'}
      aria-label={t('messages')}
      tabIndex={0}
      className="min-h-40 flex-1 space-y-3 overflow-y-auto px-4 py-3 focus-visible:outline-2 focus-visible:outline-primary-500"
    >
      {messages.length === 0 && <li className="text-sm text-slate-600 dark:text-slate-400">{t('empty')}</li>}
      {messages.map((message) => (
        <MessageItem
          key={message.id}
          message={message}
          isReplay={isReplay}
          isPinned={state.pinned?.id === message.id}
          canModerate={state.can_moderate}
          isLive={state.is_open}
          onModerate={onModerate}
        />
      ))}
    </ol>
  );
}

function ModeratorBar({
  state,
  onModerate,
}: {
  state: ViewerChatState;
  onModerate: (action: ModerationAction) => void;
}) {
  const { t, i18n } = useTranslation('viewer-chat');
  const slowId = useId();
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor={slowId} className="text-xs text-slate-700 dark:text-slate-300">
        {t('slow_mode')}
      </label>
      <select
        id={slowId}
        value={state.slow_mode_seconds}
        onChange={(event) => onModerate({ kind: 'slow-mode', seconds: Number(event.target.value) })}
        className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-950"
      >
        {[...new Set([...SLOW_MODE_CHOICES, state.slow_mode_seconds])].map((seconds) => (
          <option key={seconds} value={seconds}>
            {seconds === 0 ? t('slow_mode_off') : formatSeconds(i18n.resolvedLanguage, seconds)}
          </option>
        ))}
      </select>
      <Button size="sm" variant="ghost" onClick={() => onModerate({ kind: 'banner', id: undefined })}>
        {t('clear_banner')}
      </Button>
    </div>
  );
}
