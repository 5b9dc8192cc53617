import type { LiveBroadcast } from '@meetcast/contracts';
import { eq, liveBroadcasts } from '@meetcast/db';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMeeting } from '../room-helpers.js';
import { BACKENDS } from '../test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from '../test-server.js';

type BroadcastAnswer = { data: LiveBroadcast | null };
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Stop answers within 2 s with the broadcast's true state. The composer here is another process,
 * played by the test over Redis: it hears the stop at once (no tick), ends the broadcast in the
 * database and says so; or it never answers, and the stop must not claim the broadcast ended.
 */
describe.each(BACKENDS)('stopping a broadcast (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  let remote: Redis;
  let publisher: Redis;
  let channel: string;

  beforeAll(async () => {
    [server, host] = await startWithPeople({ backend, env: { COMPOSER_WORKER: 'off', REDIS_URL } }, 'Stop Host');
    channel = `${server.built.context.config.redisPrefix}:broadcast-signals`;
    remote = new Redis(REDIS_URL);
    publisher = new Redis(REDIS_URL);
    await remote.subscribe(channel);
  });
  afterAll(async () => {
    remote.disconnect();
    publisher.disconnect();
    await server.close();
  });

  /** A broadcast a composer elsewhere has taken (its heartbeat fresh), live. */
  async function runningElsewhere() {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const [row] = await server.built.context.db
      .insert(liveBroadcasts)
      .values({
        meetingId: meeting.id,
        startedBy: host.user.id,
        state: 'live',
        startedAt: new Date(),
        composerId: 'other-machine-1',
        composerHeartbeatAt: new Date(),
      })
      .returning();
    return { meeting, broadcast: row! };
  }
  const stop = (slug: string) =>
    server.post<BroadcastAnswer>(
      'stop-broadcast.php',
      { token: host.token, meetId: slug },
      { 'accept-language': 'en' },
    );

  it('reaches a composer in another process at once, and answers "ended" once it has ended, within 2 s', async () => {
    const { meeting, broadcast } = await runningElsewhere();
    const heard: number[] = [];
    const composer = async (_channel: string, text: string) => {
      const signal = JSON.parse(text) as { kind: string; origin: string };
      if (signal.kind !== 'nudge') return;
      heard.push(Date.now());
      const [row] = await server.built.context.db
        .select()
        .from(liveBroadcasts)
        .where(eq(liveBroadcasts.id, broadcast.id));
      if (!row?.stopRequested) return;
      // The other process's composer ends its pushes and writes the end, then tells every process.
      await server.built.context.db
        .update(liveBroadcasts)
        .set({ state: 'ended', endedAt: new Date(), composerId: null })
        .where(eq(liveBroadcasts.id, broadcast.id));
      await publisher.publish(channel, JSON.stringify({ kind: 'changed', broadcastId: broadcast.id, origin: 'other' }));
    };
    remote.on('message', (channelName: string, text: string) => void composer(channelName, text));
    try {
      const startedAt = Date.now();
      const answer = await stop(meeting.slug);
      const took = Date.now() - startedAt;
      expect(answer.httpStatus).toBe(200);
      expect(answer.body.data!.data!.state).toBe('ended');
      expect(answer.body.message).toBe('The broadcast has ended.');
      expect(took).toBeLessThan(2000);
      expect(heard.length).toBeGreaterThan(0);
      expect(heard[0]! - startedAt).toBeLessThan(1000);
    } finally {
      remote.removeAllListeners('message');
    }
  });

  it('tells a composer worker in another process of a new broadcast at once, not at its next tick', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const heard = new Promise<number>((resolve) => {
      remote.on('message', (_channel: string, text: string) => {
        if ((JSON.parse(text) as { kind: string }).kind === 'nudge') resolve(Date.now());
      });
    });
    try {
      const startedAt = Date.now();
      const started = await server.post('start-broadcast.php', { token: host.token, meetId: meeting.slug, record: 1 });
      expect(started.httpStatus).toBe(200);
      expect((await heard) - startedAt).toBeLessThan(1000);
    } finally {
      remote.removeAllListeners('message');
    }
  });

  it('answers the true state, saying it is ending, when the composer has not ended it within 2 s', async () => {
    const { meeting, broadcast } = await runningElsewhere();
    const startedAt = Date.now();
    const answer = await stop(meeting.slug);
    const took = Date.now() - startedAt;
    expect(answer.httpStatus).toBe(200);
    expect(took).toBeLessThan(2000);
    expect(answer.body.data!.data!.state).toBe('live');
    expect(answer.body.message).toBe('The broadcast is ending; it stops in a few moments.');
    const [row] = await server.built.context.db
      .select()
      .from(liveBroadcasts)
      .where(eq(liveBroadcasts.id, broadcast.id));
    expect(row).toMatchObject({ state: 'live', stopRequested: true });
    const french = await server.post<BroadcastAnswer>(
      'stop-broadcast.php',
      { token: host.token, meetId: meeting.slug },
      { 'accept-language': 'fr' },
    );
    expect(french.body.message).toBe('La diffusion est en cours d’arrêt ; elle s’arrête dans quelques instants.');
  });
});
