import type { BroadcastViewer, ChannelPage, LiveBroadcast, Recording } from '@meetcast/contracts';
import { and, eq, liveBroadcasts, meetingInvitees, meetings, users } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingLink } from '../src/streaming/recording-access.js';
import { addMeeting, DAY, meetingFields, nowSeconds } from './meeting-helpers.js';
import { recordedBroadcast, statusOf } from './recording-fixture.js';
import type { JoinAnswer } from './room-helpers.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

type BroadcastAnswer = { data: LiveBroadcast | null };

/**
 * Who learns about a meeting's broadcast and who may fetch its recording (docs/security.md, "Access to
 * meetings, broadcasts and recordings"): a public meeting's recording is the channel page's replay; a
 * private meeting's goes only to its host's and invitees' accounts, and its file address checks that too.
 */
describe('access to broadcasts and recordings', () => {
  let server: TestServer;
  let host: SignedIn;
  let invitee: SignedIn;
  let outsider: SignedIn;

  beforeAll(async () => {
    [server, host, invitee, outsider] = await startWithPeople(
      { backend: 'pglite', env: { COMPOSER_WORKER: 'off' } },
      'Access Host',
      'Access Invitee',
      'Access Outsider',
    );
  });
  afterAll(() => server.close());

  const broadcastOf = async (meetId: string, fields: Record<string, string>) =>
    (await server.post<BroadcastAnswer>('get-broadcast.php', { meetId, ...fields })).body.data?.data ?? null;

  it('tells someone knocking at a private meeting’s lobby nothing, and never serves them its recording', async () => {
    const meeting = await addMeeting(server, host, { is_private: 1, invitees: invitee.email });
    const { name } = await recordedBroadcast(server, meeting.id);
    const knock = await server.post<JoinAnswer>('join-room.php', { meetId: meeting.url_slug, display_name: 'Knocker' });
    expect(knock.body.data?.state).toBe('lobby');

    expect(await broadcastOf(meeting.url_slug, { grant: knock.body.data!.grant })).toBeNull();
    expect(await broadcastOf(meeting.url_slug, { token: outsider.token })).toBeNull();
    // The file's address alone opens nothing: it is not a public recording.
    expect(await statusOf(server, `/api/recordings/${name}`)).toBe(404);
    expect(await statusOf(server, `/api/recordings/${name}?download=1`)).toBe(404);
  });

  it('serves a private meeting’s recording to its host and invitees, at an address only they are given', async () => {
    const meeting = await addMeeting(server, host, { is_private: 1, invitees: invitee.email });
    const { name } = await recordedBroadcast(server, meeting.id);
    const hostUrl = (await broadcastOf(meeting.url_slug, { token: host.token }))?.recording?.url;
    const inviteeUrl = (await broadcastOf(meeting.url_slug, { token: invitee.token }))?.recording?.url;
    const listed = await server.post<{ data: Recording[] }>('get-recordings.php', { token: host.token });
    const listedUrl = listed.body.data!.data.find((item) => item.url_slug === meeting.url_slug)?.url;
    for (const url of [hostUrl, inviteeUrl, listedUrl]) {
      expect(url).toMatch(new RegExp(`^/api/recordings/${name}\\?access=`));
      expect(await statusOf(server, url!)).toBe(200);
    }
    // The same address polled twice stays the same, so a playing video is not reloaded.
    expect((await broadcastOf(meeting.url_slug, { token: host.token }))?.recording?.url).toBe(hostUrl);

    // An address made for one person, or for another file, opens nothing else.
    const access = new URL(inviteeUrl!, server.baseUrl).searchParams.get('access')!;
    const [, expiry, mac] = access.split('.');
    const other = await recordedBroadcast(server, meeting.id);
    for (const forged of [
      `/api/recordings/${name}?access=${outsider.user.id}.${expiry}.${mac}`,
      `/api/recordings/${name}?access=${invitee.user.id}.${Number(expiry) + 3600}.${mac}`,
      `/api/recordings/${other.name}?access=${access}`,
      `/api/recordings/${name}?access=${encodeURIComponent(`${access}x`)}`,
    ]) {
      expect(await statusOf(server, forged), forged).toBe(404);
    }

    // An invitee taken off the list loses the recording, even at the address they were given.
    await server.built.context.db
      .delete(meetingInvitees)
      .where(and(eq(meetingInvitees.meetingId, meeting.id), eq(meetingInvitees.userId, invitee.user.id)));
    expect(await statusOf(server, inviteeUrl!)).toBe(404);
    expect(await broadcastOf(meeting.url_slug, { token: invitee.token })).toBeNull();
    expect(await statusOf(server, hostUrl!)).toBe(200);
  });

  it('keeps a public meeting’s recording as the replay anyone may watch, and follows the meeting’s privacy', async () => {
    const meeting = await addMeeting(server, host, { is_private: 2 });
    const { name } = await recordedBroadcast(server, meeting.id);
    const seenByAnyone = await broadcastOf(meeting.url_slug, {});
    expect(seenByAnyone?.recording?.url).toBe(`/api/recordings/${name}`);
    const replay = await server.post<{ data: BroadcastViewer }>('get-broadcast-viewer.php', {
      meetId: meeting.url_slug,
    });
    expect(replay.body.data!.data.recording?.url).toBe(`/api/recordings/${name}`);
    expect(await statusOf(server, `/api/recordings/${name}`)).toBe(200);

    // Made private afterwards: its recording is no longer public.
    await server.built.context.db.update(meetings).set({ isPrivate: 1 }).where(eq(meetings.id, meeting.id));
    expect(await statusOf(server, `/api/recordings/${name}`)).toBe(404);
    expect(await broadcastOf(meeting.url_slug, {})).toBeNull();
  });

  it('ends a signed address after its time, and with the account it was made for', async () => {
    const meeting = await addMeeting(server, host, { is_private: 1, invitees: invitee.email });
    const { name } = await recordedBroadcast(server, meeting.id);
    const { config } = server.built.context;
    const forInvitee = { kind: 'account', userId: invitee.user.id } as const;
    const twelveHoursAgo = Date.now() - 12 * 3600_000 - 1000;
    expect(await statusOf(server, recordingLink(config, name, forInvitee, twelveHoursAgo)!)).toBe(404);
    const current = recordingLink(config, name, forInvitee)!;
    expect(await statusOf(server, current)).toBe(200);
    await server.built.context.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, invitee.user.id));
    expect(await statusOf(server, current)).toBe(404);
    await server.built.context.db.update(users).set({ disabledAt: null }).where(eq(users.id, invitee.user.id));
  });

  it('keeps a channel broadcast made private off its public channel page', async () => {
    const channel = await server.post<{ id: number; slug: string }>('create-channel.php', {
      ...{ token: host.token, name: 'Open Channel', slug: `open-${Date.now().toString(36)}` },
    });
    const start = nowSeconds() + DAY;
    const scheduled = await server.post<{ url_slug: string; id: number }>('schedule-broadcast.php', {
      ...{ token: host.token, id: channel.body.data!.id, name: 'Board briefing' },
      ...{ start_time: start, end_time: start + 3600 },
    });
    const slug = scheduled.body.data!.url_slug;
    const page = async () =>
      (await server.post<ChannelPage>('get-channel.php', { slug: channel.body.data!.slug })).body.data!;
    expect((await page()).channel?.upcoming.map((broadcast) => broadcast.url_slug)).toEqual([slug]);

    const [row] = await server.built.context.db.select().from(meetings).where(eq(meetings.slug, slug));
    const edited = await server.post('edit-meeting.php', {
      ...meetingFields({ name: 'Board briefing', slug, is_private: 1, start_time: start }),
      ...{ token: host.token, id: row!.id },
    });
    expect(edited.httpStatus).toBe(200);
    expect((await page()).channel?.upcoming).toEqual([]);
    expect((await server.post('get-channel.php', { slug })).httpStatus).toBe(404);
    // Nor does its going live make the channel live.
    await server.built.context.db.update(meetings).set({ state: 'live' }).where(eq(meetings.id, row!.id));
    await server.built.context.db.insert(liveBroadcasts).values({ meetingId: row!.id, state: 'live' });
    expect(await page()).toMatchObject({ channel: { is_live: false, live: null } });
    // Its host still finds it on their own channel page.
    const own = await server.post<ChannelPage>('get-channel.php', { slug, token: host.token });
    expect(own.body.data?.broadcast?.name).toBe('Board briefing');
  });
});
