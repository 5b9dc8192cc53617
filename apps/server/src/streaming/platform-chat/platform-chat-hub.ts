import { PLATFORM_CHAT_LIMITS, type PlatformChatMessage } from '@meetcast/contracts';
import {
  and,
  broadcastDestinations,
  eq,
  inArray,
  liveBroadcasts,
  streamConnections,
  type ConnectionRow,
  type DestinationRow,
} from '@meetcast/db';
import type { AppContext } from '../../context.js';
import { RUNNING_BROADCAST_STATES } from '../state/transitions.js';
import { runChatReader, type ChatSource, type RawChatMessage } from './chat-reader.js';
import { plainChatText } from './chat-text.js';
import { platformChatStore, type StoredChatMessage } from './chat-store.js';
import { twitchChatSource } from './twitch-chat.js';
import { youtubeChatSource } from './youtube-chat.js';

/** How often the hub looks again without being told (a missed change is caught this late). */
const RECONCILE_MS = 2000;

type Reader = { stop(): Promise<void> };
type Target = { destination: DestinationRow; connection: ConnectionRow; meetingId: number };

/**
 * Reads the platform chat of the broadcasts this process's composer worker owns (ADR 040): one reader
 * per destination that is live on YouTube or Twitch, started when it goes live and stopped when it
 * ends, is removed, or the broadcast moves to another worker. Only the owner reads, so a message is
 * read once however many processes run. Each message is cleaned, kept (platformChatStore) and
 * announced as `platform-chat.message`; broadcast-sockets.ts pushes it to the studio.
 */
export class PlatformChatHub {
  private readonly readers = new Map<number, Reader>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private isAgain = false;
  private isClosed = false;

  constructor(
    private readonly context: AppContext,
    private readonly ownerId: string,
  ) {
    context.events.on('broadcast.changed', () => this.reconcile());
  }

  start() {
    this.timer = setInterval(() => this.reconcile(), RECONCILE_MS);
    this.timer.unref();
    this.reconcile();
  }

  /** Starts and stops readers to match the database; calls while one runs fold into one more run. */
  reconcile() {
    if (this.isClosed) return;
    if (this.running) {
      this.isAgain = true;
      return;
    }
    this.running = this.sync()
      .catch((error: unknown) => this.context.log.warn({ err: error }, 'platform chat: reconcile failed'))
      .finally(() => {
        this.running = undefined;
        if (this.isAgain) {
          this.isAgain = false;
          this.reconcile();
        }
      });
  }

  private async sync() {
    const rows = await this.context.db
      .select({ destination: broadcastDestinations, connection: streamConnections, broadcast: liveBroadcasts })
      .from(broadcastDestinations)
      .innerJoin(liveBroadcasts, eq(liveBroadcasts.id, broadcastDestinations.broadcastId))
      .innerJoin(streamConnections, eq(streamConnections.id, broadcastDestinations.connectionId))
      .where(
        and(
          eq(liveBroadcasts.composerId, this.ownerId),
          inArray(liveBroadcasts.state, RUNNING_BROADCAST_STATES),
          eq(broadcastDestinations.state, 'live'),
          eq(broadcastDestinations.removed, false),
          inArray(broadcastDestinations.platform, ['youtube', 'twitch']),
        ),
      );
    if (this.isClosed) return;
    const wanted = new Map(rows.map((row) => [row.destination.id, { ...row, meetingId: row.broadcast.meetingId }]));
    for (const [id, reader] of this.readers) {
      if (wanted.has(id)) continue;
      this.readers.delete(id);
      await reader.stop();
      this.context.log.info({ destinationId: id }, 'platform chat: reader stopped');
    }
    for (const [id, target] of wanted) {
      if (this.readers.has(id)) continue;
      const source = this.sourceFor(target);
      if (!source) continue;
      this.readers.set(id, this.read(target, source));
      this.context.log.info({ destinationId: id, platform: target.destination.platform }, 'platform chat: reading');
    }
  }

  private sourceFor({ destination, connection }: Target): ChatSource | undefined {
    if (destination.platform === 'twitch' && connection.externalId) return twitchChatSource(this.context, connection);
    if (destination.platform === 'youtube' && destination.externalBroadcastId) {
      return youtubeChatSource(this.context, connection, destination.externalBroadcastId);
    }
    return undefined;
  }

  private read(target: Target, source: ChatSource): Reader {
    const { destination, connection, meetingId } = target;
    const platform = destination.platform as PlatformChatMessage['platform'];
    const seen = new Set<string>();
    const store = platformChatStore(this.context);
    return runChatReader(
      source,
      async (raw) => {
        const fresh = raw.filter((message) => !seen.has(message.id)).map((message) => clean(platform, message));
        // YouTube's page tokens and EventSub's ids already make repeats rare; this catches a replayed page.
        if (seen.size > 5000) seen.clear();
        for (const message of fresh) seen.add(message.id);
        const kept = fresh
          .filter((message) => message.text !== '')
          .map((message) => ({ ...message, connection_id: connection.id }));
        await store.add(destination.broadcastId, kept);
        for (const { connection_id: _, avatar_url: __, author_id: ___, ...message } of kept) {
          await this.context.events.emit('platform-chat.message', {
            meetingId,
            broadcastId: destination.broadcastId,
            message,
          });
        }
      },
      (error, failures) =>
        this.context.log.warn(
          { err: error, destinationId: destination.id, platform, failures },
          'platform chat: the platform failed; trying again later',
        ),
    );
  }

  async close() {
    this.isClosed = true;
    clearInterval(this.timer);
    await this.running;
    const readers = [...this.readers.values()];
    this.readers.clear();
    await Promise.all(readers.map((reader) => reader.stop()));
  }
}

function clean(
  platform: PlatformChatMessage['platform'],
  raw: RawChatMessage,
): Omit<StoredChatMessage, 'connection_id'> {
  return {
    id: plainChatText(raw.id, 200),
    platform,
    author_name: plainChatText(raw.authorName, PLATFORM_CHAT_LIMITS.authorName) || '?',
    text: plainChatText(raw.text, PLATFORM_CHAT_LIMITS.text),
    published_at: Math.floor((Number.isFinite(raw.publishedAt) ? raw.publishedAt : Date.now()) / 1000),
    avatar_url: raw.avatarUrl && /^https?:\/\//.test(raw.avatarUrl) ? raw.avatarUrl.slice(0, 1000) : null,
    author_id: raw.authorId ? plainChatText(raw.authorId, 100) : null,
  };
}
