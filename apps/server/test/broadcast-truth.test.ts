import type { Broadcast, BroadcastViewer, ChannelDetail } from '@meetcast/contracts';
import { eq, liveBroadcasts, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './test-database.js';
import { startWithPeople, webDistWithIndex, type SignedIn, type TestServer } from './test-server.js';

type Page = { channel: ChannelDetail | null; broadcast: Broadcast | null };

/** ADR 022: the channel page's lists, its broadcast card and the watch page's player say the same thing. */
describe.each(BACKENDS)('one public state for a broadcast (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  let channelId: number;
  const db = () => server.database.handle.db;
  const page = async (slug: string) => (await server.post<Page>('get-channel.php', { slug })).body.data!;
  const viewer = async (meetId: string) =>
    (await server.post<{ data: BroadcastViewer }>('get-broadcast-viewer.php', { meetId })).body.data!.data;
  const addMeeting = async (name: string, state: 'scheduled' | 'live' | 'ended', endsInMs = 3600_000) => {
    const [row] = await db()
      .insert(meetings)
      .values({
        hostId: host.user.id,
        name,
        slug: `truth-${name.toLowerCase()}`,
        isSchedule: 1,
        startTime: new Date(Date.now() - 60_000),
        endTime: new Date(Date.now() + endsInMs),
        state,
        channelId,
      })
      .returning();
    return row!;
  };

  beforeAll(async () => {
    [server, host] = await startWithPeople(
      { backend, env: { LOG_LEVEL: 'error', WEB_DIST_DIR: webDistWithIndex() } },
      'Truth Host',
    );
    const created = await server.post<ChannelDetail>('create-channel.php', {
      token: host.token,
      name: 'Truth Live',
      slug: 'truth-live',
    });
    channelId = created.body.data!.id;
  });
  afterAll(() => server.close());

  it('lists live first, then upcoming, then every past broadcast with its replay, and the player agrees', async () => {
    // On air although the meeting row still says scheduled: the channel said UPCOMING while live.
    const onAir = await addMeeting('OnAir', 'scheduled');
    await db().insert(liveBroadcasts).values({ meetingId: onAir.id, state: 'live', startedAt: new Date() });
    const next = await addMeeting('Next', 'scheduled');
    // The host is still in the room, the broadcast ended and its recording is finished: a replay now.
    const justEnded = await addMeeting('JustEnded', 'live');
    await db().insert(liveBroadcasts).values({
      meetingId: justEnded.id,
      state: 'ended',
      recordingFile: 'truth.mp4',
      recordingSeconds: 180,
      endedAt: new Date(),
    });
    // The host left: the meeting is back to scheduled, the card must not flip to "Starting now".
    const hostLeft = await addMeeting('HostLeft', 'scheduled');
    await db().insert(liveBroadcasts).values({
      meetingId: hostLeft.id,
      state: 'ended',
      recordingFile: 'left.mp4',
      recordingSeconds: 1080,
      endedAt: new Date(),
    });
    const unused = await addMeeting('Unused', 'scheduled', -1000);

    const { channel } = await page('truth-live');
    expect(channel!.is_live).toBe(true);
    expect(channel!.live).toMatchObject({ name: 'OnAir', public_state: 'live' });
    expect(channel!.upcoming.map((b) => [b.name, b.public_state])).toEqual([['Next', 'upcoming']]);
    expect(channel!.past.map((b) => b.public_state).sort()).toEqual(['ended', 'replay', 'replay']);
    expect(channel!.past.map((b) => b.name).sort()).toEqual(['HostLeft', 'JustEnded', 'Unused']);

    for (const meeting of [onAir, next, justEnded, hostLeft, unused]) {
      const card = (await page(meeting.slug)).broadcast!;
      const player = await viewer(meeting.slug);
      expect([meeting.name, player.public_state]).toEqual([meeting.name, card.public_state]);
    }
    expect((await viewer(justEnded.slug)).recording?.duration).toBe(180);

    // The broadcast ends: it leaves the live slot and is a past broadcast at once.
    await db()
      .update(liveBroadcasts)
      .set({ state: 'ended', endedAt: new Date() })
      .where(eq(liveBroadcasts.meetingId, onAir.id));
    const after = (await page('truth-live')).channel!;
    expect(after.is_live).toBe(false);
    expect(after.live).toBeNull();
    expect(after.past.find((b) => b.name === 'OnAir')?.public_state).toBe('ended');
  });
});
