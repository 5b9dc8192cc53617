import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveBroadcast } from '@meetcast/contracts';
import { eq, liveBroadcasts } from '@meetcast/db';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/media/managed-janus.js';
import { waitFor } from '../../src/streaming/composer/child-processes.js';
import { insertMeeting } from '../room-helpers.js';
import { startLayoutPage } from './composer-processes.js';
import { startTestServer, type SignedIn, type TestServer } from '../test-server.js';

type BroadcastAnswer = { data: LiveBroadcast | null };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A rehearsal with the real composer (ADR 047 part 2): the encode runs and nothing reaches the RTMP
 * receiver; "Go live" adds the destination and the recording to the same running composer (no new
 * claim, no restart), the receiver gets the stream, and the recording covers the time from "Go live".
 */
describe('a rehearsal that goes live (real composer)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-rehearsal-'));
  let layoutPage: Server;
  let server: TestServer;
  let host: SignedIn;
  let receiver: RtmpReceiver;

  beforeAll(async () => {
    layoutPage = await startLayoutPage({ background: '#a62' });
    receiver = new RtmpReceiver(await freePort(), 'live/rehearsal-key', join(folder, 'received')).start();
    server = await startTestServer('pglite', {
      COMPOSER_WORKER: 'local',
      COMPOSER_SPARES: '0',
      COMPOSER_PAGE_URL: `http://127.0.0.1:${(layoutPage.address() as AddressInfo).port}`,
    });
    host = await server.signUp({ username: 'Rehearsing Host' });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await receiver?.stop();
    layoutPage?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('sends nothing while rehearsing, then pushes and records from "Go live" on the same encode', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const added = await server.post<{ data: { id: number } }>('add-rtmp-destination.php', {
      token: host.token,
      name: 'Own server',
      url: `rtmp://127.0.0.1:${receiver.port}/live`,
      stream_key: 'rehearsal-key',
    });
    const rowOf = async () =>
      (await server.built.context.db.select().from(liveBroadcasts).where(eq(liveBroadcasts.id, broadcastId)))[0]!;
    const broadcastOf = async () =>
      (await server.post<BroadcastAnswer>('get-broadcast.php', { token: host.token, meetId: meeting.slug })).body.data!
        .data!;
    const started = await server.post<BroadcastAnswer>('start-broadcast.php', {
      token: host.token,
      meetId: meeting.slug,
      rehearsal: 1,
    });
    expect(started.httpStatus).toBe(200);
    const broadcastId = started.body.data!.data!.id;
    try {
      // "live" is written once the encode, the viewer feed (the preview's source) and no recording run.
      await waitFor(async () => (await rowOf()).state === 'live', 120_000, 'rehearsal encoding');
      const rehearsing = await rowOf();
      expect(rehearsing).toMatchObject({ rehearsal: true, record: false });
      expect(rehearsing.composerId).not.toBeNull();
      await pause(5000);
      expect(receiver.bytes()).toBe(0);

      const goLiveAt = Date.now();
      const live = await server.post<BroadcastAnswer>('go-live.php', {
        token: host.token,
        meetId: meeting.slug,
        destinations: JSON.stringify([{ connection_id: added.body.data!.data.id }]),
        record: 1,
      });
      expect(live.httpStatus).toBe(200);
      expect(live.body.data!.data).toMatchObject({ state: 'live', rehearsal: false });
      await waitFor(async () => (await broadcastOf()).destinations[0]?.state === 'live', 90_000, 'destination live');
      await waitFor(() => receiver.bytes() > 20_000, 60_000, 'bytes at the receiver');
      const after = await rowOf();
      // The same composer runs it: nobody claimed it again, and the start time moved to "Go live".
      expect(after.composerId).toBe(rehearsing.composerId);
      expect(after.startedAt!.getTime()).toBeGreaterThanOrEqual(goLiveAt - 1000);
      expect(after.startedAt!.getTime()).toBeGreaterThan(rehearsing.startedAt!.getTime());
      await pause(3000);
    } finally {
      await server.post('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
      await waitFor(async () => (await broadcastOf()).state === 'ended', 30_000, 'ended');
    }
    const stoppedAt = Date.now();
    await waitFor(async () => (await rowOf()).recordingSeconds !== null, 60_000, 'recording attached');
    const ended = await rowOf();
    expect(ended.recordingFile).toMatch(/\.mp4$/);
    // Recorded from "Go live", not from the rehearsal's start (which was at least 5 s earlier).
    const rehearsalStart = ended.createdAt.getTime();
    expect(ended.recordingSeconds!).toBeGreaterThan(1);
    expect(ended.recordingSeconds!).toBeLessThan((stoppedAt - rehearsalStart) / 1000 - 5);
  }, 360_000);
});
