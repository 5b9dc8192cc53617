import type { StreamConnection } from '@meetcast/contracts';
import { broadcastDestinations, eq, liveBroadcasts, streamConnections } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DestinationRow } from '@meetcast/db';
import type { DestinationError, PlatformIds } from '../src/streaming/destination-driver.js';
import { createDestinationDrivers } from '../src/streaming/drivers/index.js';
import { changeRunningDestination } from '../src/streaming/state/destination-state.js';
import { startFakeGoogle, type FakeGoogle } from '@meetcast/testkit/fake-google';
import { startFakeTwitch, type FakeTwitch } from '@meetcast/testkit/fake-twitch';
import { addMeeting } from './meeting-helpers.js';
import { connected, connectionRow } from './stream-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

const YOUTUBE_INGEST = 'rtmp://127.0.0.1:19350/live2';
const TWITCH_INGEST = 'rtmp://127.0.0.1:19351/app';

describe.each(BACKENDS)('destination drivers on %s', (backend) => {
  let server: TestServer;
  let google: FakeGoogle;
  let twitch: FakeTwitch;
  let ann: SignedIn;
  let meetingId: number;
  let drivers: ReturnType<typeof createDestinationDrivers>;

  beforeAll(async () => {
    google = await startFakeGoogle({
      ingestBase: YOUTUBE_INGEST,
      channel: { id: 'UCdrivers', title: 'Driver Channel' },
    });
    twitch = await startFakeTwitch({
      ingestBase: TWITCH_INGEST,
      user: { id: '777', login: 'driver_tv', display_name: 'Driver_TV' },
    });
    [server, ann] = await startWithPeople({ backend, env: { ...google.env, ...twitch.env } }, 'Ann');
    meetingId = (await addMeeting(server, ann)).id;
    drivers = createDestinationDrivers(server.built.context);
  });
  afterAll(async () => {
    await server.close();
    await google.close();
    await twitch.close();
  });

  /** A destination row as the broadcast service stores it, in a broadcast of its own. */
  async function destinationFor(connection: StreamConnection, fields: Partial<DestinationRow> = {}) {
    const db = server.built.context.db;
    const [broadcast] = await db
      .insert(liveBroadcasts)
      .values({ meetingId, startedBy: ann.user.id, state: 'ended' })
      .returning();
    const [row] = await db
      .insert(broadcastDestinations)
      .values({
        broadcastId: broadcast?.id ?? 0,
        connectionId: connection.id,
        platform: connection.platform,
        name: connection.name,
        title: 'Weekly demo',
        description: 'What we built this week',
        ...fields,
      })
      .returning();
    if (!row) throw new Error('destination not stored');
    return row;
  }

  /** What the composer does with a prepare's answer (or failure): it stores the platform's ids. */
  async function remember(destination: DestinationRow, ids: PlatformIds | undefined) {
    await changeRunningDestination(
      server.built.context,
      { id: destination.broadcastId, meetingId },
      destination.id,
      ids ?? {},
    );
  }
  async function prepared(destination: DestinationRow) {
    const answer = await drivers.youtube.prepare(destination);
    await remember(destination, answer.ids);
    return answer;
  }

  const stored = async (id: number) =>
    (await server.built.context.db.select().from(broadcastDestinations).where(eq(broadcastDestinations.id, id)))[0];

  it('YouTube: prepare makes one broadcast and stream however often it is retried, then live and complete', async () => {
    const destination = await destinationFor(await connected(server, ann, 'youtube'), { privacy: 'private' });
    const insertedBefore = google.insertedBroadcasts;

    // The second liveStreams.insert attempt fails after the broadcast exists: the retry reuses the broadcast.
    google.failNext(1, 503, 1);
    const failure: unknown = await drivers.youtube.prepare(destination).catch((error: unknown) => error);
    expect(failure).toMatchObject({ key: 'stream_connections.youtube_unavailable', retryable: true });
    // The driver writes no row: the broadcast YouTube made before the failure comes with it.
    expect(await stored(destination.id)).toMatchObject({ externalBroadcastId: null });
    const partial = (failure as DestinationError).ids;
    expect(partial.externalBroadcastId).toBeTruthy();
    await remember(destination, partial);
    const first = await prepared(destination);
    const second = await prepared(destination);
    expect(google.insertedBroadcasts).toBe(insertedBefore + 1);
    expect(second.ingestUrl).toBe(first.ingestUrl);

    const row = await stored(destination.id);
    const broadcast = google.broadcasts().find((entry) => entry.id === row?.externalBroadcastId);
    const stream = google.streams().find((entry) => entry.id === row?.externalStreamId);
    expect(first.ingestUrl).toBe(`${YOUTUBE_INGEST}/${stream?.streamName}`);
    expect(broadcast).toMatchObject({
      title: 'Weekly demo',
      description: 'What we built this week',
      privacyStatus: 'private',
      lifeCycleStatus: 'ready',
      boundStreamId: stream?.id,
      enableMonitorStream: false,
    });

    // YouTube sees the media a moment after the push starts.
    let isReceiving = false;
    google.isStreamActive = () => isReceiving;
    setTimeout(() => (isReceiving = true), 1200);
    await drivers.youtube.goLive(destination);
    expect(google.broadcasts().find((entry) => entry.id === broadcast?.id)?.lifeCycleStatus).toBe('live');
    await drivers.youtube.goLive(destination);
    expect(await drivers.youtube.status(destination)).toEqual({ health: 'good' });

    await drivers.youtube.finish(destination);
    expect(google.broadcasts().find((entry) => entry.id === broadcast?.id)?.lifeCycleStatus).toBe('complete');
    await drivers.youtube.finish(destination);
    google.isStreamActive = () => true;
  });

  it('YouTube: a stream YouTube never receives fails goLive, and a channel that cannot stream fails prepare', async () => {
    const connection = await connected(server, ann, 'youtube');
    const silent = await destinationFor(connection);
    await prepared(silent);
    google.isStreamActive = () => false;
    try {
      await expect(drivers.youtube.goLive(silent)).rejects.toMatchObject({
        key: 'stream_connections.youtube_stream_inactive',
        retryable: true,
      });
    } finally {
      google.isStreamActive = () => true;
    }
    // Ending a broadcast that never went live is not an error.
    await drivers.youtube.finish(silent);

    google.liveStreamingEnabled = false;
    try {
      await expect(drivers.youtube.prepare(await destinationFor(connection))).rejects.toMatchObject({
        key: 'stream_connections.youtube_live_not_enabled',
        retryable: false,
      });
    } finally {
      google.liveStreamingEnabled = true;
    }
  });

  it('YouTube: refreshes a token about to expire, and a withdrawn grant fails for good and marks it revoked', async () => {
    google.oauth.accessTokenLifetimeSeconds = 120;
    const connection = await connected(server, ann, 'youtube');
    google.oauth.accessTokenLifetimeSeconds = 3599;
    const before = await connectionRow(server, connection.id);
    const refreshes = google.oauth.counts.refreshes;
    const destination = await destinationFor(connection);
    await prepared(destination);
    expect(google.oauth.counts.refreshes).toBe(refreshes + 1);
    const after = await connectionRow(server, connection.id);
    expect(after.accessTokenSealed).not.toBe(before.accessTokenSealed);
    // Google keeps the refresh token.
    expect(after.refreshTokenSealed).toBe(before.refreshTokenSealed);
    expect(after.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 50 * 60 * 1000);

    google.revokeAll();
    await expect(drivers.youtube.status(destination)).rejects.toMatchObject({
      key: 'stream_connections.youtube_revoked',
      retryable: false,
    });
    expect((await connectionRow(server, connection.id)).status).toBe('revoked');
    await expect(drivers.youtube.prepare(await destinationFor(connection))).rejects.toMatchObject({
      key: 'stream_connections.youtube_revoked',
    });
  });

  it('Twitch: prepare sets title and category and answers the ingest with the stream key; status reads viewers', async () => {
    const connection = await connected(server, ann, 'twitch');
    const destination = await destinationFor(connection, { title: 'Live from Meetcast', category: '509670' });
    const { ingestUrl } = await drivers.twitch.prepare(destination);
    expect(ingestUrl).toBe(`${TWITCH_INGEST}/${twitch.streamKeyOf('777')}`);
    expect(twitch.channels.get('777')).toMatchObject({
      title: 'Live from Meetcast',
      game_id: '509670',
      game_name: 'Science & Technology',
    });
    await drivers.twitch.goLive(destination);
    twitch.viewerCount = 12;
    expect(await drivers.twitch.status(destination)).toEqual({ viewers: 12 });
    twitch.isStreamActive = () => false;
    expect(await drivers.twitch.status(destination)).toEqual({ viewers: 0 });
    twitch.isStreamActive = () => true;
    await drivers.twitch.finish(destination);

    await expect(drivers.twitch.prepare({ ...destination, category: 'no-such-game' })).rejects.toMatchObject({
      key: 'stream_connections.twitch_category_unknown',
      retryable: false,
    });
    twitch.failNext(1, 500);
    await expect(drivers.twitch.status(destination)).rejects.toMatchObject({
      key: 'stream_connections.twitch_unavailable',
      retryable: true,
    });
  });

  it('RTMP: the stored address with the key appended; a removed connection fails for good', async () => {
    const added = await server.post<{ data: StreamConnection }>('add-rtmp-destination.php', {
      token: ann.token,
      name: 'Restream',
      url: 'rtmp://ingest.example.com/live/',
      stream_key: 'abc-123',
    });
    const connection = added.body.data?.data;
    if (!connection) throw new Error(added.body.message);
    const destination = await destinationFor(connection);
    expect(await drivers.rtmp.prepare(destination)).toEqual({ ingestUrl: 'rtmp://ingest.example.com/live/abc-123' });
    await drivers.rtmp.goLive(destination);
    expect(await drivers.rtmp.status(destination)).toEqual({});
    await drivers.rtmp.finish(destination);

    await server.built.context.db.delete(streamConnections).where(eq(streamConnections.id, connection.id));
    const orphan = await stored(destination.id);
    expect(orphan?.connectionId).toBeNull();
    await expect(drivers.rtmp.prepare(orphan ?? destination)).rejects.toMatchObject({
      key: 'stream_connections.connection_missing',
      retryable: false,
    });
  });
});
