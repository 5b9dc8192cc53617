import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { broadcastDestinations, liveBroadcasts, streamConnections } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../src/i18n/messages.js';
import { secretsBoxFor } from '../src/platform/secrets-box.js';
import type { ConnectionRow } from '@meetcast/db';
import { createDestinationDrivers } from '../src/streaming/drivers/index.js';
import { checkedIngestUrl, ingestConnectTarget } from '../src/streaming/ingest-address.js';
import { startFakeGoogle, type FakeGoogle } from '@meetcast/testkit/fake-google';
import { addMeeting } from './meeting-helpers.js';
import { connected } from './stream-helpers.js';
import { startTestServer, startWithPeople, type SignedIn, type TestServer } from './test-server.js';

/**
 * Server-side request forgery through streaming addresses: a server as it is installed (no
 * RTMP_ALLOW_PRIVATE) refuses to save, and to push to, any address inside the machine or its
 * networks, however it is spelled. A TCP listener on loopback shows that nothing connects.
 */
const INSIDE_FORMS = [
  '127.0.0.1',
  '[::1]',
  '0.0.0.0',
  '[::]',
  'localhost',
  '169.254.169.254',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '127.1',
  '0x7f.1',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[64:ff9b::7f00:1]',
  '2852039166',
  '10.0.0.1',
  '172.16.5.4',
  '192.168.1.1',
  '100.64.0.1',
  '[fd00:ec2::254]',
  '[fe80::1]',
  '224.0.0.1',
  '255.255.255.255',
];

/** A loopback port that counts who connects to it. */
async function listener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => count };
}

describe('outgoing addresses without RTMP_ALLOW_PRIVATE', () => {
  let server: TestServer;
  let google: FakeGoogle;
  let loopback: Awaited<ReturnType<typeof listener>>;
  let ann: SignedIn;

  beforeAll(async () => {
    loopback = await listener();
    // YouTube's answer is an outside party's: here it names the loopback listener as the ingest.
    google = await startFakeGoogle({ ingestBase: `rtmp://127.0.0.1:${loopback.port}/live2` });
    [server, ann] = await startWithPeople({ backend: 'pglite', env: { ...google.env, RTMP_ALLOW_PRIVATE: '' } }, 'Ann');
  });
  afterAll(async () => {
    // Optional chaining: a start that timed out must not hide its own failure behind this one.
    await server?.close();
    await google?.close();
    await new Promise((resolve) => loopback?.server.close(resolve));
  });

  it('refuses to save an RTMP address inside, in every spelling, with a translated message', async () => {
    for (const host of INSIDE_FORMS) {
      for (const scheme of ['rtmp', 'rtmps']) {
        const url = `${scheme}://${host}:${loopback.port}/live`;
        const answer = await server.post('add-rtmp-destination.php', {
          token: ann.token,
          name: 'Inside',
          url,
          stream_key: 'key',
        });
        expect(answer.httpStatus, url).toBe(400);
        expect(answer.body, url).toEqual({
          status: 'error',
          message: translate('en', 'stream_connections.rtmp_address_inside'),
        });
      }
    }
    const german = await server.post('add-rtmp-destination.php', {
      token: ann.token,
      name: 'Inside',
      url: 'rtmp://2130706433/live',
      stream_key: 'key',
      lng: 'de',
    });
    expect(german.httpStatus).toBe(400);
    expect(german.body.message).toBe(translate('de', 'stream_connections.rtmp_address_inside'));
    expect(german.body.message).not.toBe(translate('en', 'stream_connections.rtmp_address_inside'));
    expect(
      (await server.post<{ data: unknown[] }>('get-stream-connections.php', { token: ann.token })).body.data?.data,
    ).toEqual([]);
    expect(loopback.connections()).toBe(0);
  });

  it('still saves public addresses and names that do not resolve yet', async () => {
    for (const url of ['rtmp://8.8.8.8/live', 'rtmps://live.example.invalid:443/app/']) {
      const answer = await server.post('add-rtmp-destination.php', {
        token: ann.token,
        name: 'Out',
        url,
        stream_key: 'k',
      });
      expect(answer.httpStatus, url).toBe(200);
    }
  });

  it('refuses at connect time an ingest inside: a platform’s answer, or an address stored before the check', async () => {
    const connectTarget = ingestConnectTarget(server.built.context.config);
    const drivers = createDestinationDrivers(server.built.context);
    const db = server.built.context.db;
    const meeting = await addMeeting(server, ann);
    const [broadcast] = await db
      .insert(liveBroadcasts)
      .values({ meetingId: meeting.id, startedBy: ann.user.id, state: 'ended' })
      .returning();
    const destinationOf = async (connection: Pick<ConnectionRow, 'id' | 'platform' | 'name'>) => {
      const [row] = await db
        .insert(broadcastDestinations)
        .values({
          broadcastId: broadcast?.id ?? 0,
          connectionId: connection.id,
          platform: connection.platform,
          name: connection.name,
          title: 'Demo',
        })
        .returning();
      if (!row) throw new Error('destination not stored');
      return row;
    };

    const youtube = await destinationOf(await connected(server, ann, 'youtube'));
    const { ingestUrl: youtubeIngest } = await drivers.youtube.prepare(youtube);
    await expect(checkedIngestUrl(connectTarget, youtubeIngest)).rejects.toMatchObject({
      key: 'broadcasts.destination_address_inside',
      retryable: false,
    });

    const [stored] = await db
      .insert(streamConnections)
      .values({
        userId: ann.user.id,
        platform: 'rtmp',
        name: 'Saved long ago',
        rtmpUrl: `rtmp://2130706433:${loopback.port}/live`,
        streamKeySealed: secretsBoxFor(server.built.context.config).seal('key'),
      })
      .returning();
    if (!stored) throw new Error('connection not stored');
    const { ingestUrl: customIngest } = await drivers.rtmp.prepare(await destinationOf(stored));
    await expect(checkedIngestUrl(connectTarget, customIngest)).rejects.toMatchObject({
      key: 'broadcasts.destination_address_inside',
    });
    await expect(checkedIngestUrl(connectTarget, 'rtmp://nowhere.invalid/live/key')).rejects.toMatchObject({
      key: 'broadcasts.destination_unreachable',
      retryable: true,
    });
    expect(loopback.connections()).toBe(0);
  });
});

describe('outgoing addresses with RTMP_ALLOW_PRIVATE=127.0.0.1', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { RTMP_ALLOW_PRIVATE: '127.0.0.1' });
  });
  afterAll(() => server?.close());

  it('lets the listed address through, pushing to it in its usual spelling, and nothing else inside', async () => {
    const connectTarget = ingestConnectTarget(server.built.context.config);
    await expect(checkedIngestUrl(connectTarget, 'rtmp://2130706433:1935/live/key')).resolves.toBe(
      'rtmp://127.0.0.1:1935/live/key',
    );
    await expect(checkedIngestUrl(connectTarget, 'rtmp://127.0.0.1:1935/live/key')).resolves.toBe(
      'rtmp://127.0.0.1:1935/live/key',
    );
    // URL parsing drops tabs and line breaks: ffmpeg gets the address as it was checked, not the raw text.
    await expect(checkedIngestUrl(connectTarget, 'rtmp://127.0.0.1\t:1935/live/key')).resolves.toBe(
      'rtmp://127.0.0.1:1935/live/key',
    );
    await expect(checkedIngestUrl(connectTarget, 'rtmp://127.0.0.2:1935/live/key')).rejects.toMatchObject({
      key: 'broadcasts.destination_address_inside',
    });
    const who = await server.signUp();
    const saved = await server.post('add-rtmp-destination.php', {
      token: who.token,
      name: 'Local',
      url: 'rtmp://127.0.0.1:1935/live',
      stream_key: 'k',
    });
    expect(saved.httpStatus).toBe(200);
    const refused = await server.post('add-rtmp-destination.php', {
      token: who.token,
      name: 'Local',
      url: 'rtmp://[::1]:1935/live',
      stream_key: 'k',
    });
    expect(refused.httpStatus).toBe(400);
  });
});
