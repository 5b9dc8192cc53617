import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WATCH_STARTED_BY_PROXY_PARAM, type BroadcastViewer, type LiveBroadcast } from '@meetcast/contracts';
import { eq, liveBroadcasts } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestBroadcastFacts } from '../../src/channels/channel-broadcasts.js';
import { issueViewerGrant, liveStreamFolder, liveStreamUrl } from '../../src/streaming/viewers/viewer-keys.js';
import { JanusBrowser } from '../janus-browser.js';
import { insertMeeting } from '../room-helpers.js';
import { BACKENDS } from '../test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from '../test-server.js';
import { chat } from '../viewer-chat-helpers.js';

type BroadcastAnswer = { data: LiveBroadcast | null };

/**
 * The rehearsal (ADR 047 part 2) without media: a broadcast started with `rehearsal` 1 runs for its
 * managers (the preview works) and is nobody else's (the public viewer state, get-broadcast.php
 * signed out, HLS, viewer grants, the channel page's facts and the viewer chat all see the broadcast
 * before it or none); go-live.php makes it public with its destinations and recording, once.
 */
describe.each(BACKENDS)('broadcast rehearsal (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  let stranger: SignedIn;

  beforeAll(async () => {
    [server, host, stranger] = await startWithPeople(
      { backend, env: { COMPOSER_WORKER: 'off' } },
      'Rehearsal Host',
      'Rehearsal Stranger',
    );
  });
  afterAll(() => server.close());

  const rtmpConnection = async (name: string) => {
    const answer = await server.post<{ data: { id: number } }>('add-rtmp-destination.php', {
      token: host.token,
      name,
      url: 'rtmp://127.0.0.1:1935/live',
      stream_key: `key-${name.replace(/\W/g, '')}`,
    });
    expect(answer.httpStatus).toBe(200);
    return answer.body.data!.data.id;
  };
  const rehearse = (meetId: string, fields: Record<string, string | number> = {}) =>
    server.post<BroadcastAnswer>('start-broadcast.php', { token: host.token, meetId, rehearsal: 1, ...fields });
  const goLive = (who: SignedIn | undefined, fields: Record<string, string | number>) =>
    server.post<BroadcastAnswer>('go-live.php', { token: who?.token, ...fields }, { 'accept-language': 'en' });
  const publicView = (meetId: string) =>
    server.post<BroadcastAnswer>('get-broadcast.php', { meetId }).then((answer) => answer.body.data!.data);
  const viewerState = async (meetId: string) =>
    (await server.post<{ data: BroadcastViewer }>('get-broadcast-viewer.php', { meetId })).body.data!.data;
  const rowOf = async (id: number) =>
    (await server.built.context.db.select().from(liveBroadcasts).where(eq(liveBroadcasts.id, id)))[0]!;
  const attempt = (grant: string) =>
    JanusBrowser.open(
      `${server.baseUrl.replace('http', 'ws')}/janus-watch?grant=${encodeURIComponent(grant)}&${WATCH_STARTED_BY_PROXY_PARAM}=1`,
    ).then(
      (viewer) => viewer,
      (error: unknown) => String(error),
    );

  it('refuses destinations and a recording in a rehearsal, and a bad flag', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const connection = await rtmpConnection('Early');
    const withDestination = await rehearse(meeting.slug, { destinations: JSON.stringify([{ connection_id: connection }]) });
    expect(withDestination.httpStatus).toBe(400);
    expect(withDestination.body.status).toBe('error');
    expect(withDestination.body.message).toMatch(/studio/);
    expect((await rehearse(meeting.slug, { record: 1 })).httpStatus).toBe(400);
    expect((await rehearse(meeting.slug, { rehearsal: 2 })).httpStatus).toBe(400);
    expect((await rehearse(meeting.slug, { rehearsal: 'yes' })).httpStatus).toBe(400);
    // Nothing was stored by any of them.
    expect(await publicView(meeting.slug)).toBeNull();
  });

  it('shows a rehearsal to its host only, then go-live makes it public with its destinations, once', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const { context } = server.built;
    // A public broadcast before it, ended with its replay: what the public still sees while rehearsing.
    const [previous] = await context.db
      .insert(liveBroadcasts)
      .values({
        meetingId: meeting.id,
        state: 'ended',
        startedAt: new Date(Date.now() - 60_000),
        endedAt: new Date(),
        recordingFile: 'previous.mp4',
        recordingSeconds: 42,
      })
      .returning();

    const started = await rehearse(meeting.slug);
    expect(started.httpStatus).toBe(200);
    const rehearsal = started.body.data!.data!;
    expect(rehearsal).toMatchObject({ state: 'starting', rehearsal: true, destinations: [], can_manage: true });
    // The composer would set these when its encode runs: live, and its start time.
    const encodeStartedAt = new Date(Date.now() - 30_000);
    await context.db
      .update(liveBroadcasts)
      .set({ state: 'live', startedAt: encodeStartedAt })
      .where(eq(liveBroadcasts.id, rehearsal.id));

    // The host's view says it is a rehearsal; the public's is the broadcast before it.
    const hosts = await server.post<BroadcastAnswer>('get-broadcast.php', { token: host.token, meetId: meeting.slug });
    expect(hosts.body.data!.data).toMatchObject({ id: rehearsal.id, state: 'live', rehearsal: true });
    const stranger1 = await server.post<BroadcastAnswer>('get-broadcast.php', {
      token: stranger.token,
      meetId: meeting.slug,
    });
    expect(stranger1.body.data!.data).toMatchObject({ id: previous!.id, state: 'ended' });
    expect(stranger1.body.data!.data).not.toHaveProperty('rehearsal');
    expect(await publicView(meeting.slug)).toMatchObject({ id: previous!.id, state: 'ended' });
    const viewer = await viewerState(meeting.slug);
    expect(viewer).toMatchObject({ broadcast_id: previous!.id, state: 'ended', hls_url: null });
    expect(viewer.recording).toMatchObject({ duration: 42 });
    expect(viewer.webrtc ?? null).toBeNull();
    expect(await latestBroadcastFacts(context, [meeting.id])).toEqual(
      new Map([[meeting.id, { state: 'ended', hasRecording: true }]]),
    );
    // The viewer chat follows the public broadcast: closed, the previous one's.
    const chatAnswer = await chat(server, meeting.slug);
    if (chatAnswer.httpStatus === 200 && chatAnswer.body.data?.data) {
      expect(chatAnswer.body.data.data).toMatchObject({ broadcast_id: previous!.id, is_open: false });
    } else {
      expect(chatAnswer.httpStatus).toBe(404);
    }
    // Its HLS address and a viewer grant for it open nothing, even with files written.
    const folder = liveStreamFolder(context.config, rehearsal.id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'index.m3u8'), '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nsegment-1.ts\n');
    writeFileSync(join(folder, 'segment-1.ts'), Buffer.alloc(188, 0x47));
    const playlist = `${server.baseUrl}${liveStreamUrl(context.config, rehearsal.id)}`;
    expect((await fetch(playlist)).status).toBe(404);
    expect(await attempt(issueViewerGrant(context.config, rehearsal.id).grant)).toBe('Error: HTTP 401');
    // The studio's preview works for it (a preview grant for the rehearsal).
    const preview = await server.post<{ data: { grant: string } }>('get-broadcast-preview.php', {
      token: host.token,
      meetId: meeting.slug,
    });
    expect(preview.httpStatus).toBe(200);
    expect(preview.body.data!.data.grant).toMatch(new RegExp(`^p${rehearsal.id}\\.`));

    // No destination is added to a rehearsal but through "Go live".
    const early = await rtmpConnection('Too early');
    const added = await server.post<BroadcastAnswer>('change-broadcast-destination.php', {
      token: host.token,
      meetId: meeting.slug,
      destination: JSON.stringify([{ connection_id: early }]),
    });
    expect(added.httpStatus).toBe(400);

    // Go live: who may, and bad input.
    expect((await goLive(undefined, { meetId: meeting.slug })).httpStatus).toBe(401);
    const refused = await goLive(stranger, { meetId: meeting.slug });
    expect(refused.httpStatus).toBe(403);
    expect(refused.body.status).toBe('error');
    expect((await goLive(host, {})).httpStatus).toBe(400);
    expect((await goLive(host, { meetId: meeting.slug, record: 3 })).httpStatus).toBe(400);
    expect((await goLive(host, { meetId: meeting.slug, destinations: 'not json' })).httpStatus).toBe(400);
    expect((await goLive(host, { meetId: 'no-such-meeting-anywhere' })).httpStatus).toBe(404);
    const idle = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    expect((await goLive(host, { meetId: idle.slug })).httpStatus).toBe(409);
    // Someone else's connection is refused, and nothing changed.
    const strangers = await server.post<{ data: { id: number } }>('add-rtmp-destination.php', {
      token: stranger.token,
      name: 'Not yours',
      url: 'rtmp://127.0.0.1:1935/live',
      stream_key: 'not-yours',
    });
    const notYours = JSON.stringify([{ connection_id: strangers.body.data!.data.id }]);
    expect((await goLive(host, { meetId: meeting.slug, destinations: notYours })).httpStatus).toBe(400);
    expect((await rowOf(rehearsal.id)).rehearsal).toBe(true);

    const connection = await rtmpConnection('Main stage');
    const destinations = JSON.stringify([{ connection_id: connection, title: 'After rehearsal' }]);
    const wentLive = await goLive(host, { meetId: meeting.slug, destinations, record: 1 });
    expect(wentLive.httpStatus).toBe(200);
    const live = wentLive.body.data!.data!;
    expect(live).toMatchObject({ id: rehearsal.id, state: 'live', rehearsal: false });
    expect(live.destinations).toEqual([
      expect.objectContaining({ connection_id: connection, name: 'Main stage', state: 'starting' }),
    ]);
    const row = await rowOf(rehearsal.id);
    expect(row).toMatchObject({ rehearsal: false, record: true });
    // The public duration starts at "Go live", not at the rehearsal's encode.
    expect(row.startedAt!.getTime()).toBeGreaterThan(encodeStartedAt.getTime() + 20_000);

    // Public now: the viewer state, get-broadcast.php, HLS and the channel page's facts.
    expect(await publicView(meeting.slug)).toMatchObject({ id: rehearsal.id, state: 'live' });
    expect(await viewerState(meeting.slug)).toMatchObject({ broadcast_id: rehearsal.id, state: 'live' });
    expect((await fetch(playlist)).status).toBe(200);
    expect(await latestBroadcastFacts(context, [meeting.id])).toEqual(
      new Map([[meeting.id, { state: 'live', hasRecording: false }]]),
    );

    // A second click changes nothing: no second destination, the same start time.
    const other = await rtmpConnection('Second click');
    const again = await goLive(host, {
      meetId: meeting.slug,
      destinations: JSON.stringify([{ connection_id: other }]),
      record: 0,
    });
    expect(again.httpStatus).toBe(200);
    expect(again.body.data!.data!.destinations.map((entry) => entry.connection_id)).toEqual([connection]);
    const after = await rowOf(rehearsal.id);
    expect(after.startedAt!.getTime()).toBe(row.startedAt!.getTime());
    expect(after.record).toBe(true);
  });

  it('ends a rehearsal without ever showing it, and lets a rehearsal go live before its encode runs', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const started = (await rehearse(meeting.slug)).body.data!.data!;
    const stopped = await server.post<BroadcastAnswer>('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
    expect(stopped.body.data!.data).toMatchObject({ id: started.id, state: 'ended' });
    // An ended rehearsal is no replay: the public never knew it.
    expect(await publicView(meeting.slug)).toBeNull();
    expect(await viewerState(meeting.slug)).toMatchObject({ broadcast_id: null, state: 'none' });

    const second = (await rehearse(meeting.slug)).body.data!.data!;
    expect(second.id).not.toBe(started.id);
    // Still starting (no composer took it): no start time yet, the composer writes it when it runs.
    const live = await goLive(host, { meetId: meeting.slug });
    expect(live.body.data!.data).toMatchObject({ id: second.id, state: 'starting', rehearsal: false, started_at: null });
    expect(await publicView(meeting.slug)).toMatchObject({ id: second.id, state: 'starting' });
  });
});
