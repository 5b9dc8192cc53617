import type { ConnectionRow } from '@meetcast/db';
import WebSocket from 'ws';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { callPlatformApi } from '../platform-tokens.js';
import type { ChatSource, RawChatMessage } from './chat-reader.js';

const EnvelopeSchema = z.object({
  metadata: z.object({
    message_type: z.string(),
    message_timestamp: z.string().optional(),
    subscription_type: z.string().optional(),
  }),
  payload: z.unknown(),
});
const WelcomeSchema = z.object({
  session: z.object({ id: z.string().min(1), keepalive_timeout_seconds: z.number().int().positive().default(10) }),
});
const ChatEventSchema = z.object({
  event: z.object({
    message_id: z.string().min(1),
    chatter_user_id: z.string().default(''),
    chatter_user_name: z.string().default(''),
    message: z.object({ text: z.string().default('') }),
  }),
});

/** A session silent for its keepalive time and this much more is dead (Twitch's own advice). */
const KEEPALIVE_SLACK_MS = 5000;

/**
 * Twitch chat over EventSub's WebSocket (ADR 040): connect, read the welcome's session id, subscribe
 * that session to `channel.chat.message` for the channel (Helix, scope `user:read:chat`), then every
 * notification is a message. `next` waits for messages; a closed or silent socket, or a refused
 * subscription, makes it throw, and the next call connects again.
 */
export function twitchChatSource(context: AppContext, connection: ConnectionRow): ChatSource {
  const broadcasterId = connection.externalId ?? '';
  let socket: WebSocket | undefined;
  let queue: RawChatMessage[] = [];
  let failure: Error | undefined;
  let waiter: (() => void) | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  let isClosed = false;
  /** Until the welcome says otherwise: Twitch's default. */
  let keepaliveSeconds = 10;

  const signal = () => {
    const wake = waiter;
    waiter = undefined;
    wake?.();
  };
  const fail = (error: Error) => {
    failure ??= error;
    clearTimeout(watchdog);
    const dying = socket;
    socket = undefined;
    dying?.terminate();
    signal();
  };
  const keepAlive = (seconds: number) => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => fail(new Error('EventSub went silent')), seconds * 1000 + KEEPALIVE_SLACK_MS);
    watchdog.unref();
  };

  const subscribe = (sessionId: string) =>
    callPlatformApi(
      context,
      connection,
      '/eventsub/subscriptions',
      {},
      {
        method: 'POST',
        json: {
          type: 'channel.chat.message',
          version: '1',
          condition: { broadcaster_user_id: broadcasterId, user_id: broadcasterId },
          transport: { method: 'websocket', session_id: sessionId },
        },
      },
    );

  const onFrame = (data: WebSocket.RawData) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      return;
    }
    const envelope = EnvelopeSchema.safeParse(parsed);
    if (!envelope.success) return;
    const { metadata, payload } = envelope.data;
    if (metadata.message_type === 'session_welcome') {
      const welcome = WelcomeSchema.safeParse(payload);
      if (!welcome.success) return fail(new Error('EventSub welcome without a session'));
      keepaliveSeconds = welcome.data.session.keepalive_timeout_seconds;
      keepAlive(keepaliveSeconds);
      subscribe(welcome.data.session.id).then(
        () => keepAlive(keepaliveSeconds),
        (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
      );
      return;
    }
    if (metadata.message_type === 'session_keepalive') return keepAlive(keepaliveSeconds);
    if (metadata.message_type === 'session_reconnect' || metadata.message_type === 'revocation') {
      return fail(new Error(`EventSub ${metadata.message_type}`));
    }
    if (metadata.message_type !== 'notification' || metadata.subscription_type !== 'channel.chat.message') return;
    keepAlive(keepaliveSeconds);
    const chat = ChatEventSchema.safeParse(payload);
    if (!chat.success) return;
    const { event } = chat.data;
    queue.push({
      id: event.message_id,
      authorName: event.chatter_user_name,
      authorId: event.chatter_user_id || null,
      avatarUrl: null,
      text: event.message.text,
      publishedAt: metadata.message_timestamp ? Date.parse(metadata.message_timestamp) : Date.now(),
    });
    signal();
  };
  const connect = () => {
    failure = undefined;
    const opened = new WebSocket(context.config.streaming.twitchEventSubUrl);
    socket = opened;
    opened.on('message', (data) => {
      if (socket === opened) onFrame(data);
    });
    opened.on('close', () => socket === opened && fail(new Error('EventSub closed')));
    opened.on('error', (error) => socket === opened && fail(error));
    keepaliveSeconds = 10;
    keepAlive(keepaliveSeconds);
  };

  return {
    async next() {
      if (isClosed) return { waitMs: 0, messages: [] };
      if (!socket && !failure) connect();
      if (queue.length === 0 && !failure) await new Promise<void>((resolve) => (waiter = resolve));
      if (failure) {
        const error = failure;
        failure = undefined;
        throw error;
      }
      const messages = queue;
      queue = [];
      return { waitMs: 0, messages };
    },
    close() {
      isClosed = true;
      clearTimeout(watchdog);
      socket?.terminate();
      socket = undefined;
      signal();
    },
  };
}
