import type { LiveBroadcast } from '@meetcast/contracts';
import { eq, liveBroadcasts, meetingAttendance } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOverdueBroadcasts } from '../../src/streaming/broadcast-limits.js';
import { insertMeeting, RoomClient, type JoinAnswer } from '../room-helpers.js';
import { BACKENDS } from '../test-database.js';
import { startTestServer, type SignedIn, type TestServer } from '../test-server.js';

type BroadcastAnswer = { data: LiveBroadcast | null };

/**
 * Broadcast slots: one account cannot take them all, the installation has its own limit, a slot
 * never stays held by a broadcast that ran too long or films an empty meeting, and a refusal says
 * when a slot frees. No composer runs here (COMPOSER_WORKER=off): broadcasts wait as "starting",
 * which holds a slot all the same.
 */
describe.each(BACKENDS)('broadcast slots (%s)', (backend) => {
  let server: TestServer;
  const noComposer = { isLocalOnly: false, hasRoom: () => true, nudge: () => undefined };

  beforeAll(async () => {
    server = await startTestServer(backend, {
      COMPOSER_WORKER: 'off',
      BROADCAST_LIMIT_PER_ACCOUNT: '2',
      BROADCAST_LIMIT_TOTAL: '3',
      BROADCAST_MAX_MINUTES: '60',
      BROADCAST_IDLE_MINUTES: '5',
    });
  });
  afterAll(() => server.close());

  /** A raw call, for the answer's headers. */
  const goLive = async (who: SignedIn, meetId: string, language = 'en') => {
    const response = await fetch(`${server.baseUrl}/api/start-broadcast.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': language },
      body: new URLSearchParams({ token: who.token, meetId, record: '1' }),
    });
    const body = (await response.json()) as { status: string; message: string; data?: BroadcastAnswer };
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body };
  };
  const liveMeeting = (who: SignedIn) => insertMeeting(server, { hostId: who.user.id, state: 'live' });
  const stateOf = async (id: number) => {
    const [row] = await server.built.context.db.select().from(liveBroadcasts).where(eq(liveBroadcasts.id, id));
    return row!;
  };

  it('gives one account its own slots and the installation its total, and says when one frees', async () => {
    const greedy = await server.signUp({ username: 'Greedy Host' });
    const other = await server.signUp({ username: 'Other Host' });
    const late = await server.signUp({ username: 'Late Host' });
    const started: { id: number; slug: string }[] = [];
    for (let index = 0; index < 2; index++) {
      const { slug } = await liveMeeting(greedy);
      const answer = await goLive(greedy, slug);
      expect(answer.status).toBe(200);
      started.push({ id: answer.body.data!.data!.id, slug });
    }
    // A third broadcast of the same account, in yet another meeting: refused, with when a slot frees.
    const third = await goLive(greedy, (await liveMeeting(greedy)).slug);
    expect(third.status).toBe(503);
    expect(third.body.status).toBe('error');
    expect(third.body.message).toMatch(/as many broadcasts as it may \(2\).*in about 60 min/);
    expect(Number(third.retryAfter)).toBeGreaterThan(59 * 60);
    expect(Number(third.retryAfter)).toBeLessThanOrEqual(60 * 60);
    const german = await goLive(greedy, (await liveMeeting(greedy)).slug, 'de');
    expect(german.body.message).toMatch(/spätestens in etwa 60 Min/);

    // The installation's total (3): another account takes the last slot, a third one waits.
    expect((await goLive(other, (await liveMeeting(other)).slug)).status).toBe(200);
    const full = await goLive(late, (await liveMeeting(late)).slug);
    expect(full.status).toBe(503);
    expect(full.body.message).toMatch(/Every broadcast slot of this server is taken.*in about 60 min/);
    expect(Number(full.retryAfter)).toBeGreaterThan(59 * 60);

    // A stopped broadcast frees its slot at once.
    const { context } = server.built;
    const slug = started[0]!.slug;
    expect((await server.post('stop-broadcast.php', { token: greedy.token, meetId: slug })).httpStatus).toBe(200);
    expect((await goLive(late, (await liveMeeting(late)).slug)).status).toBe(200);

    // Ended by their longest life: every slot is free again, and each says why it ended.
    expect(await endOverdueBroadcasts(context, noComposer, Date.now() + 61 * 60_000)).toBe(3);
    const ended = await stateOf(started[1]!.id);
    expect(ended).toMatchObject({ state: 'ended', failure: 'broadcasts.ended_too_long' });
    const view = await server.post<BroadcastAnswer>('get-broadcast.php', { token: greedy.token, meetId: slug });
    expect(view.httpStatus).toBe(200);
    expect((await goLive(greedy, (await liveMeeting(greedy)).slug)).status).toBe(200);
  });

  it('lets starts sent at the same moment take no more than the account’s slots', async () => {
    await server.built.context.db.delete(liveBroadcasts);
    const eager = await server.signUp({ username: 'Eager Host' });
    const meetings = await Promise.all(Array.from({ length: 5 }, () => liveMeeting(eager)));
    const answers = await Promise.all(meetings.map((meeting) => goLive(eager, meeting.slug)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 503, 503, 503]);
  });

  it('ends a broadcast once nobody has been in its meeting for BROADCAST_IDLE_MINUTES, not while someone is', async () => {
    const host = await server.signUp({ username: 'Idle Host' });
    const { context } = server.built;
    const empty = await liveMeeting(host);
    const attended = await liveMeeting(host);
    const leftEarlier = await liveMeeting(host);
    await server.built.context.db.delete(liveBroadcasts);
    const ids: number[] = [];
    for (const meeting of [empty, attended]) {
      const answer = await goLive(host, meeting.slug);
      expect(answer.status).toBe(200);
      ids.push(answer.body.data!.data!.id);
    }
    const joined = await server.post<JoinAnswer>('join-room.php', { meetId: attended.slug, token: host.token });
    const room = new RoomClient(server.baseUrl, joined.body.data!.grant);
    try {
      await room.next('room.state');
      // Within the idle time nothing ends.
      expect(await endOverdueBroadcasts(context, noComposer, Date.now() + 4 * 60_000)).toBe(0);
      // Past it: the empty meeting's broadcast ends; the one with someone in it goes on.
      expect(await endOverdueBroadcasts(context, noComposer, Date.now() + 6 * 60_000)).toBe(1);
      expect(await stateOf(ids[0]!)).toMatchObject({ state: 'ended', failure: 'broadcasts.ended_empty' });
      expect((await stateOf(ids[1]!)).state).toBe('starting');
    } finally {
      room.close();
    }

    // The last one left 2 minutes before: not yet idle; 6 minutes: idle. A composer running it ends it.
    const [broadcast] = await context.db
      .insert(liveBroadcasts)
      .values({ meetingId: leftEarlier.id, state: 'live', startedBy: host.user.id, composerId: 'elsewhere' })
      .returning();
    await context.db.insert(meetingAttendance).values({
      meetingId: leftEarlier.id,
      displayName: 'Gone',
      joinedAt: new Date(Date.now() - 20 * 60_000),
      leftAt: new Date(Date.now() + 4 * 60_000),
    });
    await context.db.delete(liveBroadcasts).where(eq(liveBroadcasts.id, ids[1]!));
    expect(await endOverdueBroadcasts(context, noComposer, Date.now() + 6 * 60_000)).toBe(0);
    expect(await endOverdueBroadcasts(context, noComposer, Date.now() + 10 * 60_000)).toBe(1);
    expect(await stateOf(broadcast!.id)).toMatchObject({
      state: 'live',
      stopRequested: true,
      failure: 'broadcasts.ended_empty',
    });
  });

  it('counts a show’s longest life from Go live, and a rehearsal’s from its own start (ADR 047)', async () => {
    const { context } = server.built;
    await context.db.delete(liveBroadcasts);
    const host = await server.signUp({ username: 'Rehearsing Host' });
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const rows = [];
    for (const values of [
      // Rehearsing for 50 minutes: at 61 its hour is over, though it never went live.
      { rehearsal: true, createdAt: minutesAgo(50), startedAt: minutesAgo(50) },
      // Rehearsed for 100 minutes, then went live just now: the show has its whole hour.
      { rehearsal: false, createdAt: minutesAgo(100), startedAt: new Date() },
    ]) {
      const meeting = await liveMeeting(host);
      // Someone is in each meeting, so only the longest life can end them.
      await context.db
        .insert(meetingAttendance)
        .values({ meetingId: meeting.id, displayName: 'Host', joinedAt: new Date() });
      const [row] = await context.db
        .insert(liveBroadcasts)
        .values({ meetingId: meeting.id, state: 'live', startedBy: host.user.id, ...values })
        .returning();
      rows.push(row!);
    }
    expect(await endOverdueBroadcasts(context, noComposer, Date.now() + 11 * 60_000)).toBe(1);
    expect(await stateOf(rows[0]!.id)).toMatchObject({ state: 'ended', failure: 'broadcasts.ended_too_long' });
    expect((await stateOf(rows[1]!.id)).state).toBe('live');
    expect(await endOverdueBroadcasts(context, noComposer, Date.now() + 61 * 60_000)).toBe(1);
    expect(await stateOf(rows[1]!.id)).toMatchObject({ state: 'ended', failure: 'broadcasts.ended_too_long' });
  });
});
