import type { CommentCard } from '@meetcast/contracts';
import { and, eq, streamConnections, viewerChatMessages, type BroadcastRow } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../http/app-error.js';
import { apiRoute, done, success } from '../../http/api-route.js';
import { requireManager, requireMeeting, runningBroadcast } from '../broadcast-service.js';
import { platformApiJson } from '../platform-tokens.js';
import { announceBroadcast } from '../state/broadcast-state.js';
import { avatarDataUrl } from './avatar.js';
import { platformChatStore, type StoredChatMessage } from './chat-store.js';

const TwitchUsersSchema = z.object({ data: z.array(z.object({ profile_image_url: z.string().optional() })) });

/** The studio's platform chat and the comment card (ADR 040), for the meeting's host and co-hosts. */
export function registerPlatformChatRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'streaming';
  const store = platformChatStore(context);

  const requireRunning = async (meetId: string, user: Parameters<typeof requireManager>[2]) => {
    const meeting = await requireMeeting(context, meetId);
    await requireManager(context, meeting, user);
    const broadcast = await runningBroadcast(context, meeting.id);
    if (!broadcast) throw conflict('broadcasts.not_running');
    return broadcast;
  };

  apiRoute(app, {
    name: 'get-platform-chat.php',
    tag,
    summary:
      "The latest YouTube and Twitch chat messages of a meeting's running broadcast (host or co-host); new ones are pushed on /broadcast-events",
    handler: async (body, { caller: { user }, t }) => {
      const broadcast = await requireRunning(body.meetId, user);
      const messages = await store.recent(broadcast.id);
      return success(t('broadcasts.found'), {
        data: messages.map(({ connection_id: _, avatar_url: __, author_id: ___, ...message }) => message),
      });
    },
  });

  apiRoute(app, {
    name: 'show-comment-card.php',
    tag,
    summary:
      'Puts a platform or viewer-chat message on the stream as a comment card with its author; without message_id, takes the card down',
    handler: async (body, { caller: { user }, t }) => {
      const broadcast = await requireRunning(body.meetId, user);
      if ((body.source === undefined) !== (body.message_id === undefined)) throw badRequest('errors.bad_request');
      const card = body.source && body.message_id ? await cardOf(broadcast, body.source, body.message_id) : null;
      await store.setCard(broadcast.id, card);
      await announceBroadcast(context, broadcast);
      return done(t('broadcasts.changed'));
    },
  });

  async function cardOf(broadcast: BroadcastRow, source: CommentCard['source'], id: string): Promise<CommentCard> {
    if (source === 'meetcast') {
      const numeric = /^\d{1,15}$/.test(id) ? Number(id) : undefined;
      const [row] =
        numeric === undefined
          ? []
          : await context.db
              .select()
              .from(viewerChatMessages)
              .where(and(eq(viewerChatMessages.id, numeric), eq(viewerChatMessages.broadcastId, broadcast.id)));
      if (!row) throw notFound();
      return { source, author_name: row.displayName, avatar: null, text: row.text };
    }
    const message = (await store.recent(broadcast.id)).find((entry) => entry.platform === source && entry.id === id);
    if (!message) throw notFound();
    return {
      source,
      author_name: message.author_name,
      avatar: await avatarDataUrl(context, await pictureOf(message)),
      text: message.text,
    };
  }

  /** YouTube names the picture with the message; Twitch is asked for the chatter's (Helix users). */
  async function pictureOf(message: StoredChatMessage): Promise<string | null> {
    if (message.platform === 'youtube' || !message.author_id) return message.avatar_url;
    const [connection] = await context.db
      .select()
      .from(streamConnections)
      .where(eq(streamConnections.id, message.connection_id));
    if (!connection) return null;
    const answer = await platformApiJson(context, connection, TwitchUsersSchema, '/users', {
      id: message.author_id!,
    }).catch(() => undefined);
    return answer?.data[0]?.profile_image_url ?? null;
  }
}
