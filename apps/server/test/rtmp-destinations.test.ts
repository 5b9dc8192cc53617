import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamConnection } from '@meetcast/contracts';
import { broadcastDestinations, liveBroadcasts, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/media/managed-janus.js';
import { secretsBoxFor } from '../src/platform/secrets-box.js';
import { RTMP_TEST_BY_ACCOUNT } from '../src/streaming/connection-routes.js';
import { connectionRow } from './stream-helpers.js';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { startSilentPort } from './streaming/rtmp-ingests.js';
import { BACKENDS } from './test-database.js';
import { recordAnswers, startWithPeople, type SignedIn, type TestServer } from './test-server.js';

/** A saved RTMP address tells what is known of it, can be tested with a real push, and edited. */
describe.each(BACKENDS)('RTMP destinations on %s', (backend) => {
  let server: TestServer;
  let ann: SignedIn;
  let bob: SignedIn;
  let folder: string;
  const answers: string[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'rtmp-destinations-'));
    // Limits as in production: the rate-limit test counts to the real 10.
    [server, ann, bob] = await startWithPeople({ backend, env: { RATE_LIMIT_MULTIPLIER: '1' } }, 'Ann', 'Bob');
    recordAnswers(server, answers);
  });
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const add = async (who: SignedIn, url: string, key = 'key_one_secret') => {
    const added = await server.post<{ data: StreamConnection }>('add-rtmp-destination.php', {
      token: who.token,
      name: 'Restream box',
      url,
      stream_key: key,
    });
    expect(added.httpStatus).toBe(200);
    return added.body.data!.data;
  };
  const test = (who: SignedIn, id: number, lng = 'en') =>
    server.post<{ data: StreamConnection }>('test-rtmp-destination.php', { token: who.token, id, lng });

  it('says a new address was never tried, and a test push to a real receiver worked', async () => {
    const receiver = new RtmpReceiver(await freePort(), 'live', join(folder, 'received')).start();
    try {
      const added = await add(ann, `rtmp://127.0.0.1:${receiver.port}/live`, 'stream');
      expect(added).toMatchObject({ last_test_at: null, last_test_result: null, last_live_at: null });
      // ffmpeg -listen takes a moment to open its port.
      const before = Date.now();
      let tested = await test(ann, added.id);
      for (let tries = 0; tries < 20 && tested.body.data?.data.last_test_result !== 'worked'; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        tested = await test(ann, added.id);
      }
      expect(tested.httpStatus).toBe(200);
      expect(tested.body.message).toContain('worked');
      expect(tested.body.data?.data).toMatchObject({ last_test_result: 'worked', last_test_reason: null });
      expect(tested.body.data?.data.last_test_at).toBeGreaterThanOrEqual(Math.floor(before / 1000));
      // Real media arrived, not only a handshake.
      expect(receiver.bytes()).toBeGreaterThan(10_000);
      // The tries while ffmpeg opened its port are not what this file's rate-limit test counts.
      await server.built.context.limiter.reset(RTMP_TEST_BY_ACCOUNT, String(ann.user.id));
    } finally {
      await receiver.stop();
    }
  });

  it('a test push to a closed port fails with a translated reason, and is stored', async () => {
    const added = await add(ann, `rtmp://127.0.0.1:${await freePort()}/live`);
    const tested = await test(ann, added.id, 'fr');
    expect(tested.httpStatus).toBe(200);
    expect(tested.body.data?.data).toMatchObject({ last_test_result: 'failed' });
    expect(tested.body.data?.data.last_test_reason).toContain('Rien n');
    const row = await connectionRow(server, added.id);
    expect(row.lastTestReason).toBe('stream_connections.test_port_closed');
    const listed = await server.post<{ data: StreamConnection[] }>('get-stream-connections.php', { token: ann.token });
    const again = listed.body.data?.data.find((connection) => connection.id === added.id);
    expect(again?.last_test_reason).toContain('Nothing is listening');
  });

  it('a server that never answers times out', async () => {
    const port = await freePort();
    const silent = await startSilentPort(port);
    try {
      const added = await add(ann, `rtmp://127.0.0.1:${port}/live`);
      const tested = await test(ann, added.id);
      expect(tested.body.data?.data).toMatchObject({
        last_test_result: 'failed',
        last_test_reason: 'The server did not answer within 10 seconds.',
      });
    } finally {
      await silent.close();
    }
  }, 30_000);

  it('edits name, address and key with the checks of adding, keeps the key when left empty', async () => {
    const added = await add(ann, 'rtmp://live.example.com/app', 'first_secret_key');
    const edited = await server.post<{ data: StreamConnection }>('edit-rtmp-destination.php', {
      token: ann.token,
      id: added.id,
      name: 'Renamed',
      url: 'rtmps://live.example.org:443/app2',
      stream_key: '',
    });
    expect(edited.httpStatus).toBe(200);
    expect(edited.body.data?.data).toMatchObject({ id: added.id, name: 'Renamed', platform: 'rtmp' });
    const box = secretsBoxFor(server.built.context.config);
    let row = await connectionRow(server, added.id);
    expect(row.rtmpUrl).toBe('rtmps://live.example.org:443/app2');
    expect(box.open(row.streamKeySealed ?? '')).toBe('first_secret_key');

    const newKey = await server.post('edit-rtmp-destination.php', {
      token: ann.token,
      id: added.id,
      name: 'Renamed',
      url: 'rtmps://live.example.org:443/app2',
      stream_key: 'second_secret_key',
    });
    expect(newKey.httpStatus).toBe(200);
    row = await connectionRow(server, added.id);
    expect(box.open(row.streamKeySealed ?? '')).toBe('second_secret_key');

    for (const [url, key] of [
      ['http://live.example.com/app', ''],
      ['rtmp://', ''],
      ['rtmp://live.example.com/app', 'has space'],
      ['rtmp://live.example.com/app', 'a/b'],
    ] as const) {
      const refused = await server.post('edit-rtmp-destination.php', {
        token: ann.token,
        id: added.id,
        name: 'X',
        url,
        stream_key: key,
      });
      expect(refused.httpStatus, `${url} ${key}`).toBe(400);
      expect(refused.body.status).toBe('error');
    }
    const noName = await server.post('edit-rtmp-destination.php', {
      token: ann.token,
      id: added.id,
      name: '',
      url: 'rtmp://live.example.com/app',
    });
    expect(noName.httpStatus).toBe(400);

    // Another account's address is not found, for editing as for testing.
    const foreign = await server.post('edit-rtmp-destination.php', {
      token: bob.token,
      id: added.id,
      name: 'Mine now',
      url: 'rtmp://live.example.com/app',
    });
    expect(foreign.httpStatus).toBe(404);
    expect((await test(bob, added.id)).httpStatus).toBe(404);
    expect((await connectionRow(server, added.id)).name).toBe('Renamed');
    expect(answers.join('\n')).not.toMatch(/first_secret_key|second_secret_key/);
  });

  it('refuses an address inside the network on edit when the server does not allow it', async () => {
    const added = await add(bob, 'rtmp://live.example.com/app');
    const inside = await server.post('edit-rtmp-destination.php', {
      token: bob.token,
      id: added.id,
      name: 'Inside',
      url: 'rtmp://169.254.169.254/app',
    });
    expect(inside.httpStatus).toBe(400);
  });

  it('remembers when a destination last went live, from the broadcast.changed event', async () => {
    const added = await add(ann, 'rtmp://live.example.com/app');
    const other = await add(ann, 'rtmp://live.example.net/app');
    const db = server.built.context.db;
    const [meeting] = await db
      .insert(meetings)
      .values({
        hostId: ann.user.id,
        name: 'Show',
        slug: `show-${backend}-${Date.now()}`,
        isSchedule: 1,
        startTime: new Date(),
        endTime: new Date(Date.now() + 3600_000),
      })
      .returning();
    const [broadcast] = await db.insert(liveBroadcasts).values({ meetingId: meeting!.id, state: 'live' }).returning();
    await db.insert(broadcastDestinations).values([
      { broadcastId: broadcast!.id, connectionId: added.id, platform: 'rtmp', name: 'A', title: 'Show', state: 'live' },
      {
        broadcastId: broadcast!.id,
        connectionId: other.id,
        platform: 'rtmp',
        name: 'B',
        title: 'Show',
        state: 'starting',
      },
    ]);
    const before = Math.floor(Date.now() / 1000);
    await server.built.context.events.emit('broadcast.changed', { meetingId: meeting!.id, broadcastId: broadcast!.id });
    const listed = await server.post<{ data: StreamConnection[] }>('get-stream-connections.php', { token: ann.token });
    const byId = new Map(listed.body.data?.data.map((connection) => [connection.id, connection]));
    expect(byId.get(added.id)?.last_live_at).toBeGreaterThanOrEqual(before);
    // Still starting: it has not been live.
    expect(byId.get(other.id)?.last_live_at).toBeNull();
  });

  it('rate-limits test pushes per account', async () => {
    const added = await add(bob, `rtmp://127.0.0.1:${await freePort()}/live`);
    // Bob's refused test of Ann's address counted too; this test starts from a fresh window.
    await server.built.context.limiter.reset(RTMP_TEST_BY_ACCOUNT, String(bob.user.id));
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) statuses.push((await test(bob, added.id)).httpStatus);
    expect(statuses.slice(0, 10), statuses.join()).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    // Another account is not held back by Bob's tests.
    const annOwn = await add(ann, `rtmp://127.0.0.1:${await freePort()}/live`);
    expect((await test(ann, annOwn.id)).httpStatus).toBe(200);
  });
});
