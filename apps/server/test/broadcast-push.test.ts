import {
  BROADCAST_EVENT,
  BROADCAST_EVENTS_NAMESPACE,
  BROADCAST_EVENTS_PROTOCOL_VERSION,
  BroadcastEventSchema,
  type BroadcastEvent,
  type BroadcastViewer,
} from '@meetcast/contracts';
import { eq, liveBroadcasts, meetings } from '@meetcast/db';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.js';
import { notifyMeetingAudienceChanged } from '../src/meeting-records/meeting-audience.js';
import { moveBroadcast } from '../src/streaming/state/broadcast-state.js';
import { postForm, startCluster, type TestCluster } from './test-cluster.js';

// ADR 022's budget is 500 ms. On CI's busy two cores a push may take longer without being lost, so the
// test fails only on a push that does not come, and prints what it measured.
const PUSH_BUDGET_MS = 500;
const PUSH_DEADLINE_MS = 10_000;

/** ADR 022: a broadcast's change made on one server reaches the sockets held by another, over Redis. */
describe('broadcast changes pushed across server processes', () => {
  let cluster: TestCluster;
  let apps: BuiltApp[];
  let urls: string[];
  const sockets: Socket[] = [];
  let host: { token: string; userId: number };

  beforeAll(async () => {
    // Longer than any test: only an announced change may refresh a viewer answer here (ADR 034).
    cluster = await startCluster('push', { VIEWER_STATE_MAX_AGE_MS: '60000' });
    ({ apps, urls } = cluster);
    host = await cluster.signUp('Push Host', 'push not poll');
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });
  afterAll(() => cluster.close());

  const db = () => apps[0]!.context.db;
  async function meeting(isPrivate: number) {
    const slug = `push-${Math.random().toString(36).slice(2, 10)}`;
    const [row] = await db()
      .insert(meetings)
      .values({
        hostId: host.userId,
        name: slug,
        slug,
        isSchedule: 1,
        isPrivate,
        startTime: new Date(),
        endTime: new Date(Date.now() + 3600_000),
        state: 'live',
      })
      .returning();
    return row!;
  }
  /** A socket on the second process, connected (or refused, with the reason). */
  function listen(meetId: string, token?: string) {
    const socket = connect(`${urls[1]}${BROADCAST_EVENTS_NAMESPACE}`, {
      path: '/socket.io/',
      transports: ['websocket'],
      reconnection: false,
      auth: { protocol: BROADCAST_EVENTS_PROTOCOL_VERSION, meetId, ...(token ? { token } : {}) },
    });
    sockets.push(socket);
    const events: BroadcastEvent[] = [];
    socket.on(BROADCAST_EVENT, (payload: unknown) => events.push(BroadcastEventSchema.parse(payload)));
    const ready = new Promise<string>((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error) => resolve(error.message));
    });
    return { socket, events, ready };
  }
  /** The first pushed event that matches (by default the first one at all). */
  const nextEvent = (events: BroadcastEvent[], matches: (event: BroadcastEvent) => boolean = () => true) =>
    new Promise<BroadcastEvent>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error('no push')), PUSH_DEADLINE_MS);
      const check = setInterval(() => {
        const found = events.find(matches);
        if (!found) return;
        clearTimeout(deadline);
        clearInterval(check);
        resolve(found);
      }, 5);
    });

  it('pushes a state change written on one process to a viewer held by another and prints how long it took', async () => {
    const open = await meeting(2);
    const [broadcast] = await db().insert(liveBroadcasts).values({ meetingId: open.id, state: 'starting' }).returning();
    const viewer = listen(open.slug);
    expect(await viewer.ready).toBe('connected');
    // Let the room join travel to Redis before the first change.
    await new Promise((resolve) => setTimeout(resolve, 100));

    await db()
      .update(liveBroadcasts)
      .set({ state: 'live', startedAt: new Date() })
      .where(eq(liveBroadcasts.id, broadcast!.id));
    const startedAt = Date.now();
    // A burst (state and destinations in one stop or start) goes out as one push.
    void apps[0]!.context.events.emit('broadcast.changed', { meetingId: open.id, broadcastId: broadcast!.id });
    void apps[0]!.context.events.emit('broadcast.changed', { meetingId: open.id, broadcastId: broadcast!.id });
    const live = await nextEvent(viewer.events);
    const pushMs = Date.now() - startedAt;
    console.log(`a change on one process reached a viewer on the other in ${pushMs} ms (budget ${PUSH_BUDGET_MS} ms)`);
    expect(live).toMatchObject({ meeting_id: open.id, broadcast_id: broadcast!.id });
    expect(live.viewer).toMatchObject({ state: 'live', public_state: 'live' });

    await db()
      .update(liveBroadcasts)
      .set({ state: 'ended', endedAt: new Date(), recordingFile: 'push.mp4', recordingSeconds: 42 })
      .where(eq(liveBroadcasts.id, broadcast!.id));
    void apps[0]!.context.events.emit('broadcast.changed', { meetingId: open.id, broadcastId: broadcast!.id });
    const ended = await nextEvent(viewer.events, (event) => event.viewer?.state === 'ended');
    expect(ended.viewer).toMatchObject({ state: 'ended', public_state: 'replay', recording: { duration: 42 } });
    // The burst went out as one push; a starved event loop may let its second change miss the group.
    expect(viewer.events.at(-1)).toBe(ended);
    expect(viewer.events.length).toBeLessThanOrEqual(3);
  });

  it("refuses a private broadcast's room to a stranger, admits its host, and tells no one else", async () => {
    const secret = await meeting(1);
    const [broadcast] = await db().insert(liveBroadcasts).values({ meetingId: secret.id, state: 'live' }).returning();
    const stranger = listen(secret.slug);
    expect(await stranger.ready).toBe('forbidden');
    expect(await listen(secret.slug, 'not-a-session').ready).toBe('forbidden');
    expect(await listen('no-such-meeting').ready).toBe('not_found');

    const studio = listen(secret.slug, host.token);
    expect(await studio.ready).toBe('connected');
    const open = await meeting(2);
    const bystander = listen(open.slug);
    expect(await bystander.ready).toBe('connected');
    await new Promise((resolve) => setTimeout(resolve, 100));
    void apps[0]!.context.events.emit('broadcast.changed', { meetingId: secret.id, broadcastId: broadcast!.id });
    const pushed = await nextEvent(studio.events);
    // A private meeting's player state is nobody's business: the studio asks get-broadcast.php for it.
    // Its host sees the room: the overlay and the stage come with the push (ADR 039).
    expect(pushed).toEqual({
      type: 'broadcast.changed',
      meeting_id: secret.id,
      broadcast_id: broadcast!.id,
      viewer: null,
      overlay: expect.objectContaining({ layout: 'auto', scene: 'live' }),
      on_stage: [],
    });
    expect(bystander.events).toHaveLength(0);
  });

  /** get-broadcast-viewer.php on one process: its HTTP status and, when 200, the viewer state. */
  async function viewerOn(index: number, meetId: string) {
    const response = await fetch(`${urls[index]}/api/get-broadcast-viewer.php`, {
      method: 'POST',
      body: new URLSearchParams({ meetId }),
    });
    const body = (await response.json()) as { data?: { data: BroadcastViewer } };
    return { status: response.status, viewer: body.data?.data };
  }

  it('serves viewers from its cache, and drops it at a change made on the other process', async () => {
    const open = await meeting(2);
    const [broadcast] = await db()
      .insert(liveBroadcasts)
      .values({ meetingId: open.id, state: 'live', startedAt: new Date(Date.now() - 60_000) })
      .returning();
    const cached = (await viewerOn(1, open.slug)).viewer!;
    expect(cached).toMatchObject({ state: 'live', public_state: 'live' });
    // A write nobody announced is not seen: no viewer's poll reads the database again.
    await db().update(liveBroadcasts).set({ startedAt: new Date() }).where(eq(liveBroadcasts.id, broadcast!.id));
    expect((await viewerOn(1, open.slug)).viewer!.started_at).toBe(cached.started_at);
    // The grant is made for each answer, not kept: it names the broadcast and a current expiry.
    expect((await viewerOn(1, open.slug)).viewer!.webrtc?.grant).toMatch(new RegExp(`^${broadcast!.id}\\.`));

    // Ended by the broadcasts' one writer on the first process: the second stops serving it at once.
    const endedAt = Date.now();
    await moveBroadcast(apps[0]!.context, broadcast!.id, 'ended');
    await expect
      .poll(async () => (await viewerOn(1, open.slug)).viewer!.state, { timeout: 1000, interval: 20 })
      .toBe('ended');
    expect(Date.now() - endedAt).toBeLessThan(1000);
    const ended = (await viewerOn(1, open.slug)).viewer!;
    expect(ended).toMatchObject({ webrtc: null, hls_url: null, public_state: 'ended' });
    expect(ended.started_at).not.toBe(cached.started_at);
  });

  it('hides a meeting made private on one process from the viewers of the other at once', async () => {
    const open = await meeting(2);
    await db().insert(liveBroadcasts).values({ meetingId: open.id, state: 'live', startedAt: new Date() });
    expect((await viewerOn(1, open.slug)).viewer).toMatchObject({ state: 'live' });
    // What edit-meeting.php does when it changes who may watch: the change, then the word.
    await db().update(meetings).set({ isPrivate: 1 }).where(eq(meetings.id, open.id));
    await notifyMeetingAudienceChanged(apps[0]!.context, open.id);
    await expect.poll(async () => (await viewerOn(1, open.slug)).status, { timeout: 1000, interval: 20 }).toBe(404);
  });

  it('pushes a scene set on one process to the studio and composer page held by the other (ADR 042)', async () => {
    const open = await meeting(2);
    const [broadcast] = await db()
      .insert(liveBroadcasts)
      .values({ meetingId: open.id, state: 'live', startedBy: host.userId, startedAt: new Date() })
      .returning();
    const studio = listen(open.slug, host.token);
    expect(await studio.ready).toBe('connected');
    const audience = listen(open.slug);
    expect(await audience.ready).toBe('connected');
    await new Promise((resolve) => setTimeout(resolve, 100));

    const sentAt = Date.now();
    const set = await postForm(urls[0]!, 'set-broadcast-overlay.php', {
      token: host.token,
      meetId: open.slug,
      scene: 'be_right_back',
      scene_message: 'Back in five',
      layout: 'spotlight',
    });
    expect(set.body.data).toBeDefined();
    const pushed = await nextEvent(studio.events, (event) => event.broadcast_id === broadcast!.id);
    console.log(`a scene change reached the other process's socket in ${Date.now() - sentAt} ms`);
    expect(pushed).toMatchObject({ type: 'broadcast.changed', meeting_id: open.id });
    // Those who see the room get the overlay with the push (ADR 039): the layout page draws it at once.
    expect(pushed.overlay).toMatchObject({
      scene: 'be_right_back',
      scene_message: 'Back in five',
      layout: 'spotlight',
    });
    // The audience hears of the change, not of the overlay (a rehearsal's is the room's only, ADR 047).
    const heard = await nextEvent(audience.events, (event) => event.broadcast_id === broadcast!.id);
    expect(heard.overlay).toBeUndefined();
    expect(heard.on_stage).toBeUndefined();
    expect(heard.viewer).toMatchObject({ state: 'live' });
    // What a page without the overlay in its push then asks, on the other process.
    const response = await fetch(`${urls[1]}/api/get-broadcast.php`, {
      method: 'POST',
      body: new URLSearchParams({ meetId: open.slug }),
    });
    const answer = (await response.json()) as { data: { data: { overlay: Record<string, unknown> } } };
    expect(answer.data.data.overlay).toMatchObject({ scene: 'be_right_back', scene_message: 'Back in five' });
  });
});
