import type { BroadcastPlan } from '@meetcast/contracts';
import { broadcastPlans, eq, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

type PlanAnswer = { data: BroadcastPlan | null };

/**
 * My Channel shows a scheduled broadcast's go-live plan and lets its host change or remove it
 * before it starts: get-broadcast-plan.php and set-broadcast-plan.php, against a real database.
 */
describe.each(BACKENDS)('go-live plans of scheduled broadcasts (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  let stranger: SignedIn;
  let channelId: number;

  beforeAll(async () => {
    [server, host, stranger] = await startWithPeople(
      { backend, env: { COMPOSER_WORKER: 'off' } },
      'Plan Host',
      'Plan Stranger',
    );
    const channel = await server.post<{ id: number }>('create-channel.php', {
      token: host.token,
      name: 'Plan Channel',
      slug: `plan-channel-${backend}`,
    });
    channelId = channel.body.data!.id;
  });
  afterAll(() => server.close());

  const rtmp = async (who: SignedIn, name: string) => {
    const answer = await server.post<{ data: { id: number } }>('add-rtmp-destination.php', {
      token: who.token,
      name,
      url: 'rtmp://127.0.0.1:1935/live',
      stream_key: `key-${name.replace(/\W/g, '')}`,
    });
    return answer.body.data!.data.id;
  };
  const schedule = async (name: string, destinations: unknown[], record: 0 | 1, startInSeconds = 3600) => {
    const start = Math.floor(Date.now() / 1000) + startInSeconds;
    const answer = await server.post<{ url_slug: string }>('schedule-broadcast.php', {
      token: host.token,
      id: channelId,
      name,
      start_time: start,
      end_time: start + 3600,
      destinations: JSON.stringify(destinations),
      record,
    });
    expect(answer.httpStatus).toBe(200);
    return answer.body.data!.url_slug;
  };
  const getPlan = (who: SignedIn, meetId: string) =>
    server.post<PlanAnswer>('get-broadcast-plan.php', { token: who.token, meetId });
  const setPlan = (who: SignedIn, meetId: string, destinations: unknown, record: 0 | 1) =>
    server.post<PlanAnswer>('set-broadcast-plan.php', {
      token: who.token,
      meetId,
      destinations: typeof destinations === 'string' ? destinations : JSON.stringify(destinations),
      record,
    });

  it('shows the plan with its connections, changes it and removes it', async () => {
    const first = await rtmp(host, 'First RTMP');
    const second = await rtmp(host, 'Second RTMP');
    const slug = await schedule('Planned talk', [{ connection_id: first, title: 'Planned talk, live' }], 1);

    const shown = await getPlan(host, slug);
    expect(shown.httpStatus).toBe(200);
    expect(shown.body.data!.data).toEqual({
      destinations: [
        {
          connection_id: first,
          title: 'Planned talk, live',
          platform: 'rtmp',
          name: 'First RTMP',
          status: 'connected',
        },
      ],
      record: true,
      started: false,
    });
    // Never a stream key in an answer.
    expect(JSON.stringify(shown.body)).not.toContain('key-FirstRTMP');

    const changed = await setPlan(host, slug, [{ connection_id: second }, { connection_id: first }], 0);
    expect(changed.httpStatus).toBe(200);
    expect(changed.body.message).toMatch(/saved/);
    expect(changed.body.data!.data).toMatchObject({
      destinations: [
        { connection_id: second, name: 'Second RTMP' },
        { connection_id: first, name: 'First RTMP' },
      ],
      record: false,
    });
    expect((await getPlan(host, slug)).body.data!.data?.destinations).toHaveLength(2);

    // A connection removed since the plan was saved is not shown (and not used when it starts).
    await server.post('remove-stream-connection.php', { token: host.token, id: second });
    expect((await getPlan(host, slug)).body.data!.data?.destinations.map((d) => d.connection_id)).toEqual([first]);

    const removed = await setPlan(host, slug, [], 0);
    expect(removed.httpStatus).toBe(200);
    expect(removed.body.message).toMatch(/removed/);
    expect(removed.body.data!.data).toBeNull();
    expect((await getPlan(host, slug)).body.data!.data).toBeNull();

    // A broadcast scheduled without a plan gets one later.
    const later = await schedule('Unplanned talk', [], 0);
    expect((await getPlan(host, later)).body.data!.data).toBeNull();
    const added = await setPlan(host, later, [], 1);
    expect(added.body.data!.data).toEqual({ destinations: [], record: true, started: false });
  });

  it('refuses strangers, bad destinations, unknown meetings and plans that already started', async () => {
    const mine = await rtmp(host, 'Mine');
    const theirs = await rtmp(stranger, 'Theirs');
    const slug = await schedule('Guarded talk', [{ connection_id: mine }], 0);

    expect((await getPlan(stranger, slug)).httpStatus).toBe(403);
    expect((await setPlan(stranger, slug, [], 0)).httpStatus).toBe(403);
    expect((await server.post('get-broadcast-plan.php', { meetId: slug })).httpStatus).toBe(401);
    expect((await getPlan(host, 'no-such-meeting')).httpStatus).toBe(404);

    for (const bad of ['not json', '{"connection_id":1}', JSON.stringify([{ connection_id: 'x' }])]) {
      expect((await setPlan(host, slug, bad, 0)).httpStatus).toBe(400);
    }
    const foreign = await setPlan(host, slug, [{ connection_id: theirs }], 0);
    expect(foreign.httpStatus).toBe(400);
    expect(foreign.body.message).toMatch(/connect it again/);
    const twice = await setPlan(host, slug, [{ connection_id: mine }, { connection_id: mine }], 0);
    expect(twice.httpStatus).toBe(400);
    // Nothing refused was stored.
    expect((await getPlan(host, slug)).body.data!.data?.destinations.map((d) => d.connection_id)).toEqual([mine]);

    // Once it has started by itself, the plan shows as started and cannot change any more.
    const { context } = server.built;
    const [meeting] = await context.db.select().from(meetings).where(eq(meetings.slug, slug));
    await context.db
      .update(broadcastPlans)
      .set({ startedAt: new Date() })
      .where(eq(broadcastPlans.meetingId, meeting!.id));
    expect((await getPlan(host, slug)).body.data!.data).toMatchObject({ started: true });
    const late = await setPlan(host, slug, [], 0);
    expect(late.httpStatus).toBe(409);
    expect(late.body.message).toMatch(/already started/);
  });
});
