import { and, eq, gt, isNull, ne, sessions, users, type Database, type UserRow } from '@meetcast/db';
import type { Redis } from 'ioredis';
import { closeRedis, subscriberRedis } from '../platform/redis.js';
import { z } from 'zod';
import { newSessionToken } from './secrets.js';
import { sha256 } from '../platform/hashing.js';

const SESSION_LIFETIME_MS = 30 * 24 * 3600 * 1000;
// A verified token is trusted this long without asking the database again; revocation in any
// process clears it at once (directly here, through Redis in the others).
const CACHE_TTL_MS = 10_000;
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export interface VerifiedSession {
  sessionId: number;
  user: UserRow;
}

interface CacheEntry extends VerifiedSession {
  cachedUntil: number;
  expiresAt: number;
  touchedAt: number;
}

const RevocationSchema = z.union([z.object({ userId: z.number() }), z.object({ tokenHash: z.string() })]);
/** Sessions that may have ended: all of one user's, or the one with this token. */
export type Revocation = z.infer<typeof RevocationSchema>;

export class SessionStore {
  private readonly cache = new Map<string, CacheEntry>();
  // Counts revocations: a database read that a revocation overtook is answered but not cached, or
  // a role removed during the read would be trusted for another CACHE_TTL_MS.
  private revocations = 0;
  private subscriber: Redis | undefined;
  private readonly revocationListeners: ((revocation: Revocation) => void)[] = [];

  /** Called in every process for every revocation (its own and, through Redis, the others'). */
  onRevocation(listener: (revocation: Revocation) => void) {
    this.revocationListeners.push(listener);
  }

  constructor(
    private readonly db: Database,
    private readonly redis?: Redis,
    private readonly revocationChannel = 'meetcast:session-revocations',
  ) {}

  async start() {
    if (!this.redis) return;
    const subscriber = subscriberRedis(this.redis);
    this.subscriber = subscriber;
    subscriber.on('message', (_channel, message) => {
      const revocation = RevocationSchema.safeParse(safeJson(message));
      if (revocation.success) this.applyRevocation(revocation.data);
    });
    // A server starting while Redis is away starts all the same (limited calls answer 503): its
    // subscription is made when Redis returns.
    await new Promise<void>((resolve) => {
      subscriber.subscribe(this.revocationChannel).then(
        () => resolve(),
        () => resolve(),
      );
      subscriber.once('error', () => resolve());
    });
    // Revocations published while this subscriber was cut off from Redis were missed: after any
    // reconnection every cached session is checked against the database again.
    this.subscriber.on('ready', () => {
      this.revocations += 1;
      this.cache.clear();
    });
  }

  async stop() {
    await closeRedis(this.subscriber);
  }

  async create(userId: number, meta: { userAgent?: string | undefined; ipAddress?: string | undefined }) {
    const token = newSessionToken();
    await this.db.insert(sessions).values({
      userId,
      tokenHash: sha256(token),
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
      ipAddress: meta.ipAddress ?? null,
      expiresAt: new Date(Date.now() + SESSION_LIFETIME_MS),
    });
    return token;
  }

  async verify(token: string): Promise<VerifiedSession | undefined> {
    const tokenHash = sha256(token);
    const now = Date.now();
    const cached = this.cache.get(tokenHash);
    if (cached && cached.cachedUntil > now && cached.expiresAt > now) {
      if (now - cached.touchedAt > TOUCH_INTERVAL_MS) this.touch(cached, now);
      return cached;
    }
    const revocationsBeforeRead = this.revocations;
    const [row] = await this.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date(now))))
      .limit(1);
    if (!row || row.user.disabledAt || !row.user.emailVerifiedAt) {
      this.cache.delete(tokenHash);
      return undefined;
    }
    const entry: CacheEntry = {
      sessionId: row.session.id,
      user: row.user,
      cachedUntil: now + CACHE_TTL_MS,
      expiresAt: row.session.expiresAt.getTime(),
      touchedAt: row.session.lastUsedAt.getTime(),
    };
    if (this.revocations !== revocationsBeforeRead) return entry;
    if (this.cache.size > 20_000) this.cache.clear();
    this.cache.set(tokenHash, entry);
    if (now - entry.touchedAt > TOUCH_INTERVAL_MS) this.touch(entry, now);
    return entry;
  }

  async revokeToken(token: string) {
    const tokenHash = sha256(token);
    await this.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.tokenHash, tokenHash));
    await this.broadcast({ tokenHash });
  }

  async revokeSession(userId: number, sessionId: number) {
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
    await this.broadcast({ userId });
  }

  /** Ends every session of a user, or every one but the session that asked. */
  async revokeAllForUser(userId: number, exceptSessionId?: number) {
    const mine = eq(sessions.userId, userId);
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(mine, isNull(sessions.revokedAt), exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined));
    await this.broadcast({ userId });
  }

  /** Drops cached copies of a user whose record changed (role, name, disabled). */
  async forgetUser(userId: number) {
    await this.broadcast({ userId });
  }

  private touch(entry: CacheEntry, now: number) {
    entry.touchedAt = now;
    void this.db
      .update(sessions)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(sessions.id, entry.sessionId))
      .catch(() => undefined);
  }

  private async broadcast(revocation: Revocation) {
    this.applyRevocation(revocation);
    // The revocation is in the database already; a process that misses this message while Redis
    // is away clears its cache when it reconnects (start()).
    await this.redis?.publish(this.revocationChannel, JSON.stringify(revocation)).catch(() => undefined);
  }

  private applyRevocation(revocation: Revocation) {
    this.revocations += 1;
    if ('tokenHash' in revocation) this.cache.delete(revocation.tokenHash);
    else for (const [hash, entry] of this.cache) if (entry.user.id === revocation.userId) this.cache.delete(hash);
    for (const listener of this.revocationListeners) listener(revocation);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
