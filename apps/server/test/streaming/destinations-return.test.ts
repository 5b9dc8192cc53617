import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveBroadcast } from '@meetcast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/media/managed-janus.js';
import { stopChild } from '../../src/platform/managed-child.js';
import { waitFor } from '../../src/streaming/composer/child-processes.js';
import { insertMeeting } from '../room-helpers.js';
import { startLayoutPage } from './composer-processes.js';
import { startTestServer, type SignedIn, type TestServer } from '../test-server.js';
import { NginxRtmp } from './rtmp-ingests.js';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';

type BroadcastAnswer = { data: LiveBroadcast | null };

/** Someone else publishing under a stream key at nginx: the broadcast's push to it is refused (BadName). */
function squat(url: string): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=10'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', '-f', 'flv', url],
    ],
    { stdio: 'ignore' },
  );
}

const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/**
 * Destinations always come back (ADR 020), with the real composer (Chromium on Xvfb, the
 * encode), a real RTMP receiver and nginx-rtmp saying no: a refused destination fails with why, and
 * is pushed to again when added again (the Live panel's Retry); a live one removed and added back is
 * pushed to again; stop answers within 2 s with the true state.
 */
describe('destinations that come back (real composer)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-return-'));
  let layoutPage: Server;
  let server: TestServer;
  let host: SignedIn;
  let receiver: RtmpReceiver;
  let nginx: NginxRtmp;
  let squatter: ChildProcess | undefined;

  beforeAll(async () => {
    layoutPage = await startLayoutPage();
    receiver = new RtmpReceiver(await freePort(), 'live/return-key', join(folder, 'received')).start();
    nginx = await new NginxRtmp(await freePort(), join(folder, 'nginx')).start();
    server = await startTestServer('pglite', {
      COMPOSER_WORKER: 'local',
      COMPOSER_SPARES: '0',
      COMPOSER_PAGE_URL: `http://127.0.0.1:${(layoutPage.address() as AddressInfo).port}`,
    });
    host = await server.signUp({ username: 'Returning Host' });
  }, 120_000);
  afterAll(async () => {
    await stopChild(squatter, 5000);
    await server?.close();
    await receiver?.stop();
    await nginx?.stop();
    layoutPage?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const rtmpConnection = async (name: string, url: string, key: string) => {
    const answer = await server.post<{ data: { id: number } }>('add-rtmp-destination.php', {
      token: host.token,
      name,
      url,
      stream_key: key,
    });
    expect(answer.httpStatus).toBe(200);
    return answer.body.data!.data.id;
  };

  it('fails a refused destination with why, pushes again on Retry, and again after remove and re-add', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const own = await rtmpConnection('Own server', `rtmp://127.0.0.1:${receiver.port}/live`, 'return-key');
    const taken = await rtmpConnection('Taken key', `rtmp://127.0.0.1:${nginx.port}/live`, 'taken-key');
    squatter = squat(`rtmp://127.0.0.1:${nginx.port}/live/taken-key`);
    await waitFor(() => nginx.output.includes('taken-key'), 20_000, 'someone else publishing the key');

    const broadcastOf = async () =>
      (await server.post<BroadcastAnswer>('get-broadcast.php', { token: host.token, meetId: meeting.slug })).body.data!
        .data!;
    const destination = async (connectionId: number) =>
      (await broadcastOf()).destinations.find((entry) => entry.connection_id === connectionId);
    const change = (fields: Record<string, string | number>) =>
      server.post<BroadcastAnswer>('change-broadcast-destination.php', {
        token: host.token,
        meetId: meeting.slug,
        ...fields,
      });

    const started = await server.post<BroadcastAnswer>('start-broadcast.php', {
      token: host.token,
      meetId: meeting.slug,
      destinations: JSON.stringify([{ connection_id: own }, { connection_id: taken }]),
      record: 0,
    });
    expect(started.httpStatus).toBe(200);
    try {
      await waitFor(async () => (await destination(own))?.state === 'live', 120_000, 'own server live');
      await waitFor(async () => (await destination(taken))?.state === 'failed', 60_000, 'the refused one failed');
      expect(await destination(taken)).toMatchObject({ state: 'failed', error: expect.stringMatching(/refused/i) });

      // The key is free again; Retry adds it again, and it is pushed to.
      await stopChild(squatter, 5000);
      squatter = undefined;
      const retried = await change({ destination: JSON.stringify([{ connection_id: taken }]) });
      expect(retried.httpStatus).toBe(200);
      expect(retried.body.data!.data!.destinations.find((entry) => entry.connection_id === taken)?.state).toBe(
        'starting',
      );
      await waitFor(async () => (await destination(taken))?.state === 'live', 60_000, 'the retried one live');

      // Removed while live and added back at once: a new push, which the receiver gets.
      const firstFile = receiver.file;
      expect(sizeOf(firstFile)).toBeGreaterThan(0);
      expect((await change({ remove_connection_id: own })).httpStatus).toBe(200);
      expect((await change({ destination: JSON.stringify([{ connection_id: own }]) })).httpStatus).toBe(200);
      await waitFor(() => receiver.file !== firstFile && sizeOf(receiver.file) > 50_000, 60_000, 'pushed again');
      await waitFor(async () => (await destination(own))?.state === 'live', 60_000, 'own server live again');
    } finally {
      const stopAt = Date.now();
      const stopped = await server.post<BroadcastAnswer>('stop-broadcast.php', {
        token: host.token,
        meetId: meeting.slug,
      });
      const took = Date.now() - stopAt;
      expect(stopped.httpStatus).toBe(200);
      expect(took).toBeLessThan(2000);
      // The answer is the true state: ended, or still live and saying it is ending.
      const state = stopped.body.data!.data!.state;
      expect(stopped.body.message).toBe(
        state === 'ended' ? 'The broadcast has ended.' : 'The broadcast is ending; it stops in a few moments.',
      );
      await waitFor(async () => (await broadcastOf()).state === 'ended', 30_000, 'ended');
    }
    // The end summary: each destination's true final state.
    expect((await broadcastOf()).destinations.map((entry) => entry.state)).toEqual(['ended', 'ended']);
  }, 300_000);
});
