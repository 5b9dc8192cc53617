import type { ConnectionRow } from '@meetcast/db';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { platformApiJson } from '../platform-tokens.js';
import type { ChatSource } from './chat-reader.js';

const BroadcastChatSchema = z.object({
  items: z.array(z.object({ snippet: z.object({ liveChatId: z.string().min(1).optional() }).optional() })).default([]),
});
const ChatPageSchema = z.object({
  nextPageToken: z.string().optional(),
  pollingIntervalMillis: z.number().int().nonnegative().default(5000),
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        snippet: z.object({ displayMessage: z.string().default(''), publishedAt: z.string().optional() }),
        authorDetails: z
          .object({
            channelId: z.string().optional(),
            displayName: z.string().default(''),
            profileImageUrl: z.string().optional(),
          })
          .default({ displayName: '' }),
      }),
    )
    .default([]),
});

/** Never faster than this, whatever a (misbehaving) answer says. */
const MIN_POLL_MS = 250;

/**
 * YouTube live chat: the broadcast's `snippet.liveChatId`, then `liveChatMessages.list` page after
 * page, each `pageToken` the previous answer's `nextPageToken`, waiting as long as the answer's
 * `pollingIntervalMillis` says (YouTube counts faster polling against the quota and may refuse it).
 */
export function youtubeChatSource(context: AppContext, connection: ConnectionRow, broadcastId: string): ChatSource {
  let liveChatId: string | undefined;
  let pageToken: string | undefined;
  return {
    async next() {
      if (!liveChatId) {
        const answer = await platformApiJson(context, connection, BroadcastChatSchema, '/liveBroadcasts', {
          part: 'snippet',
          id: broadcastId,
        });
        liveChatId = answer.items[0]?.snippet?.liveChatId;
        if (!liveChatId) throw new Error('the broadcast has no live chat (yet)');
      }
      const page = await platformApiJson(context, connection, ChatPageSchema, '/liveChat/messages', {
        liveChatId,
        part: 'snippet,authorDetails',
        pageToken,
      });
      pageToken = page.nextPageToken ?? pageToken;
      return {
        waitMs: Math.max(MIN_POLL_MS, page.pollingIntervalMillis),
        messages: page.items.map((item) => ({
          id: item.id,
          authorName: item.authorDetails.displayName,
          authorId: item.authorDetails.channelId ?? null,
          avatarUrl: item.authorDetails.profileImageUrl ?? null,
          text: item.snippet.displayMessage,
          publishedAt: item.snippet.publishedAt ? Date.parse(item.snippet.publishedAt) : Date.now(),
        })),
      };
    },
    close() {},
  };
}
