import { streamingCalls, type CommentSource, type LiveBroadcast } from '@meetcast/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { api } from '../../lib/api';
import { CommentSourceMark } from '../streaming';
import { useViewerChat } from '../viewer-chat';
import { liveBroadcastKey } from './live-api';
import { usePlatformChat } from './use-platform-chat';

interface FeedItem {
  key: string;
  source: CommentSource;
  id: string;
  author: string;
  text: string;
  at: number;
}

/** Newest last, like every chat; the list keeps this many. */
const FEED_LENGTH = 150;

/**
 * The studio's chat (ADR 040): YouTube, Twitch and the channel page's own viewer chat in one list,
 * each message with its source's mark, and a button that puts it on the stream as a comment card.
 */
export function StudioChat({ broadcast }: { broadcast: LiveBroadcast }) {
  const { t } = useTranslation('streaming');
  const meetId = broadcast.url_slug;
  const isLive = broadcast.state === 'starting' || broadcast.state === 'live';
  const platform = usePlatformChat(meetId, isLive);
  const viewer = useViewerChat({ meetId }, undefined);
  const queryClient = useQueryClient();
  const card = useMutation({
    mutationFn: (input: { source: CommentSource; message_id: string } | null) =>
      api.call(streamingCalls.showCommentCard, { meetId, ...(input ?? {}) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: liveBroadcastKey(meetId) }),
  });

  const feed = useMemo(() => {
    const items: FeedItem[] = [
      ...(platform.data ?? []).map((message) => ({
        key: `${message.platform}:${message.id}`,
        source: message.platform,
        id: message.id,
        author: message.author_name,
        text: message.text,
        at: message.published_at,
      })),
      ...(viewer.data?.messages ?? []).map((message) => ({
        key: `meetcast:${message.id}`,
        source: 'meetcast' as const,
        id: String(message.id),
        author: message.author.display_name,
        text: message.text,
        at: message.created_at,
      })),
    ];
    return items.sort((a, b) => a.at - b.at).slice(-FEED_LENGTH);
  }, [platform.data, viewer.data]);

  return (
    <div className="space-y-2" data-studio-chat>
      {broadcast.overlay.comment && (
        <div className="flex items-center justify-between gap-2 rounded-lg bg-primary-50 p-2 text-sm dark:bg-primary-500/10">
          <span className="min-w-0 truncate">
            {t('chat.on_stream', { name: broadcast.overlay.comment.author_name })}
          </span>
          <Button size="sm" variant="secondary" isLoading={card.isPending} onClick={() => card.mutate(null)}>
            {t('chat.take_down')}
          </Button>
        </div>
      )}
      {feed.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('chat.empty')}</p>
      ) : (
        <ul aria-live="polite" className="max-h-80 space-y-2 overflow-y-auto pe-1">
          {feed.map((item) => (
            <li key={item.key} data-chat-source={item.source} className="flex items-start gap-2">
              <CommentSourceMark source={item.source} />
              <span className="sr-only">{t(`chat.sources.${item.source}`)}</span>
              <div className="min-w-0 flex-1 text-sm">
                <bdi className="font-semibold text-slate-900 dark:text-white">{item.author}</bdi>{' '}
                <span dir="auto" className="break-words text-slate-700 dark:text-slate-300">
                  {item.text}
                </span>
              </div>
              <Button
                size="sm"
                variant="secondary"
                aria-label={t('chat.show_card_for', { name: item.author })}
                disabled={card.isPending}
                onClick={() => card.mutate({ source: item.source, message_id: item.id })}
              >
                {t('chat.show_card')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
