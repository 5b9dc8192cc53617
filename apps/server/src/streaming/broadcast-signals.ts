import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { closeRedis, subscriberRedis } from '../platform/redis.js';

/**
 * `nudge`: a broadcast was started, changed or asked to stop, every composer worker looks now.
 * `changed`: a broadcast's row changed (`broadcast.changed` in the process that wrote it), or what
 * the public may see of a meeting did (only `meetingId` then): cached viewer answers go (ADR 034).
 */
const SignalSchema = z.object({
  kind: z.enum(['nudge', 'changed']),
  broadcastId: z.number().int().optional(),
  meetingId: z.number().int().optional(),
  origin: z.string(),
});
export type BroadcastSignal = Omit<z.infer<typeof SignalSchema>, 'origin'>;
type Listener = (signal: BroadcastSignal) => void;

/**
 * What composer workers and stop calls tell each other about broadcasts, at once and in every
 * process: in-process listeners directly, other processes over Redis pub/sub (under REDIS_PREFIX)
 * when it is configured. A worker on another machine hears of a new broadcast or a stop now, not at
 * its next tick; a stop call hears that its broadcast ended wherever its composer runs.
 */
export class BroadcastSignals {
  private readonly origin = randomBytes(6).toString('hex');
  private readonly listeners = new Set<Listener>();
  private subscriber: Redis | undefined;
  private readonly channel: string;

  constructor(private readonly context: AppContext) {
    this.channel = `${context.config.redisPrefix}:broadcast-signals`;
    context.events.on('broadcast.changed', ({ meetingId, broadcastId }) =>
      this.send({ kind: 'changed', broadcastId, meetingId }),
    );
  }

  /** Listens to the other processes (a no-op without Redis). */
  start() {
    if (!this.context.redis || this.subscriber) return;
    const subscriber = subscriberRedis(this.context.redis);
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      const parsed = SignalSchema.safeParse(safeJson(text));
      if (!parsed.success || parsed.data.origin === this.origin) return;
      const { kind, broadcastId, meetingId } = parsed.data;
      this.dispatch({ kind, broadcastId, meetingId });
    });
    subscriber.subscribe(this.channel).catch((error: unknown) => {
      this.context.log.warn({ err: error }, 'broadcast signals: no subscription; workers fall back to their tick');
    });
  }

  send(signal: BroadcastSignal) {
    this.dispatch(signal);
    this.context.redis
      ?.publish(this.channel, JSON.stringify({ ...signal, origin: this.origin }))
      .catch(() => undefined);
  }

  on(listener: Listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves at the next change of this broadcast, or after `ms`, whichever comes first. */
  nextChange(broadcastId: number, ms: number) {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      const unsubscribe = this.on((signal) => {
        if (signal.kind === 'changed' && signal.broadcastId === broadcastId) done();
      });
    });
  }

  async close() {
    this.listeners.clear();
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    await closeRedis(subscriber);
  }

  private dispatch(signal: BroadcastSignal) {
    for (const listener of [...this.listeners]) listener(signal);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
