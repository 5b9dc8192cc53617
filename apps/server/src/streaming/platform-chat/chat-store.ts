import {
  CommentCardSchema,
  PLATFORM_CHAT_LIMITS,
  PlatformChatMessageSchema,
  type CommentCard,
} from '@meetcast/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Redis } from 'ioredis';

/** A broadcast's platform chat and comment card outlive any broadcast (12 h, the longest allowed, and more). */
const KEEP_MS = 24 * 3600 * 1000;

/**
 * A platform message as the server keeps it: what the studio is shown, plus where the author's
 * picture is found (YouTube gives its address; Twitch is asked for it by user id when it is needed).
 */
export const StoredChatMessageSchema = PlatformChatMessageSchema.extend({
  connection_id: z.number().int(),
  avatar_url: z.string().nullable(),
  author_id: z.string().nullable(),
});
export type StoredChatMessage = z.infer<typeof StoredChatMessageSchema>;

const StoredListSchema = z.array(StoredChatMessageSchema);

/**
 * The latest platform messages of each broadcast and its comment card, where every process finds them
 * (Redis when the installation shares one, else this process's memory). Only the broadcast's owner
 * adds messages, so the read-then-write of the list has a single writer.
 */
export class PlatformChatStore {
  private readonly memory = new Map<string, { value: string; until: number }>();

  constructor(
    private readonly redis: Redis | undefined,
    private readonly prefix: string,
  ) {}

  /** Redis while it answers; this process's memory without it (a single process) or while it is away. */
  private readonly marks = {
    recall: async (key: string): Promise<string | undefined> => {
      if (this.redis?.status === 'ready') return (await this.redis.get(`${this.prefix}:${key}`)) ?? undefined;
      const entry = this.memory.get(key);
      return entry && entry.until > Date.now() ? entry.value : undefined;
    },
    remember: async (key: string, value: string, ttlMs: number) => {
      if (this.redis?.status === 'ready') await this.redis.set(`${this.prefix}:${key}`, value, 'PX', ttlMs);
      else {
        const now = Date.now();
        if (this.memory.size > 1000) {
          for (const [old, entry] of this.memory) if (entry.until <= now) this.memory.delete(old);
        }
        this.memory.set(key, { value, until: now + ttlMs });
      }
    },
  };

  async recent(broadcastId: number): Promise<StoredChatMessage[]> {
    return parseJson(StoredListSchema, await this.marks.recall(`${broadcastId}:recent`)) ?? [];
  }

  async add(broadcastId: number, messages: StoredChatMessage[]) {
    if (messages.length === 0) return;
    const kept = [...(await this.recent(broadcastId)), ...messages].slice(-PLATFORM_CHAT_LIMITS.history);
    await this.marks.remember(`${broadcastId}:recent`, JSON.stringify(kept), KEEP_MS);
  }

  async card(broadcastId: number): Promise<CommentCard | null> {
    return parseJson(CommentCardSchema, await this.marks.recall(`${broadcastId}:card`)) ?? null;
  }

  async setCard(broadcastId: number, card: CommentCard | null) {
    await this.marks.remember(`${broadcastId}:card`, JSON.stringify(card), KEEP_MS);
  }
}

function parseJson<T>(schema: z.ZodType<T>, text: string | undefined): T | undefined {
  if (!text) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const stores = new WeakMap<AppContext, PlatformChatStore>();

/** One store per server (its memory fallback must be the same object for the writer and the readers). */
export function platformChatStore(context: AppContext): PlatformChatStore {
  let store = stores.get(context);
  if (!store) {
    store = new PlatformChatStore(context.redis, `${context.config.redisPrefix}:platform-chat`);
    stores.set(context, store);
  }
  return store;
}
