import type { BroadcastReminder, BroadcastViewer } from '@meetcast/contracts';
import { broadcastChapters, broadcastReminders, channels, eq, meetings, users } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyChannelFollowers } from '../src/notifications/channel-followers.js';
import { attachRecording, moveBroadcast } from '../src/streaming/state/broadcast-state.js';
import { insertMeeting, RoomClients } from './room-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

type ReminderAnswer = { data: BroadcastReminder };
type Started = { data: { id: number } };

/**
 * "Notify me" on a channel's next broadcast and the replay's chapters (ADR 048): who may ask, that
 * each person asking is told exactly once when it goes live, that taking it back and deleting the
 * account or the channel work, and that layout changes and screen shares on stage become chapters.
 */
describe.each(BACKENDS)('broadcast reminders and chapters (%s)', (backend) => {
  let server: TestServer;
  let ann: SignedIn;
  let bob: SignedIn;
  let cat: SignedIn;
  let dan: SignedIn;
  let eve: SignedIn;
  let channelId: number;
  const rooms = new RoomClients(() => server);

  beforeAll(async () => {
    [server, ann, bob, cat, dan, eve] = await startWithPeople(
      { backend, env: { PUBLIC_URL: 'https://meet.example.com' } },
      'Ann',
      'Bob',
      'Cat',
      'Dan',
      'Eve',
    );
    const created = await server.post<{ id: number }>('create-channel.php', {
      token: ann.token,
      name: 'Ann Live',
      slug: `ann-live-${backend}`,
    });
    channelId = created.body.data!.id;
  }, 180_000);
  afterAll(() => rooms.closeWith(server));

  const schedule = async (name: string) => {
    const start = Math.floor(Date.now() / 1000) + 3600;
    const answer = await server.post<{ url_slug: string }>('schedule-broadcast.php', {
      token: ann.token,
      id: channelId,
      name,
      start_time: start,
      end_time: start + 3600,
    });
    expect(answer.httpStatus).toBe(200);
    const slug = answer.body.data!.url_slug;
    const [meeting] = await server.database.handle.db.select().from(meetings).where(eq(meetings.slug, slug));
    return meeting!;
  };
  const remind = (person: SignedIn | undefined, meetId: string, on: number | string) =>
    server.post<ReminderAnswer>('set-broadcast-reminder.php', { token: person?.token, meetId, on });
  const reminderOf = (person: SignedIn, meetId: string) =>
    server.post<ReminderAnswer>('get-broadcast-reminder.php', { token: person.token, meetId });
  const mailsTo = (email: string) => server.mail.messages.filter((mail) => mail.to.includes(email));

  it('refuses what is not a broadcast a viewer may ask about, the same way, and bad fields with 400', async () => {
    const meeting = await schedule('Rules');
    expect((await remind(undefined, meeting.slug, 1)).httpStatus).toBe(401);
    for (const on of [2, -1, 'yes', '']) {
      const bad = await remind(bob, meeting.slug, on);
      expect(bad.httpStatus).toBe(400);
      expect(bad.body.status).toBe('error');
    }
    expect((await server.post('set-broadcast-reminder.php', { token: bob.token, on: 1 })).httpStatus).toBe(400);
    expect((await remind(bob, 'x'.repeat(101), 1)).httpStatus).toBe(400);
    // Unknown, private and outside any channel answer alike: nothing learnt about what exists.
    const privateOne = await insertMeeting(server, { hostId: ann.user.id, isPrivate: 1 });
    await server.database.handle.db.update(meetings).set({ channelId }).where(eq(meetings.id, privateOne.id));
    const outside = await insertMeeting(server, { hostId: ann.user.id });
    const answers = await Promise.all(
      ['no-such-meeting', privateOne.slug, outside.slug].map((slug) => remind(bob, slug, 1)),
    );
    expect(answers.map((answer) => answer.httpStatus)).toEqual([404, 404, 404]);
    expect(new Set(answers.map((answer) => answer.body.message)).size).toBe(1);
  });

  it('tells each person who asked exactly once when it goes live; a follower who asked hears once; taking it back works', async () => {
    const meeting = await schedule('Launch <day>');
    expect((await reminderOf(bob, meeting.slug)).body.data!.data).toEqual({ is_set: false, is_sent: false });
    const set = await remind(bob, meeting.slug, 1);
    expect(set.httpStatus).toBe(200);
    expect(set.body.message).toBe('We will tell you when it goes live.');
    expect(set.body.data!.data).toEqual({ is_set: true, is_sent: false });
    expect((await remind(bob, meeting.slug, '1')).body.data!.data.is_set).toBe(true);
    expect((await remind(cat, meeting.slug, 1)).httpStatus).toBe(200);
    expect((await remind(eve, meeting.slug, 1)).httpStatus).toBe(200);
    const off = await remind(eve, meeting.slug, 0);
    expect(off.body.data!.data).toEqual({ is_set: false, is_sent: false });
    expect((await server.post('follow-channel.php', { token: dan.token, id: channelId })).httpStatus).toBe(200);
    expect((await remind(dan, meeting.slug, 1)).httpStatus).toBe(200);
    const rows = await server.database.handle.db
      .select()
      .from(broadcastReminders)
      .where(eq(broadcastReminders.meetingId, meeting.id));
    expect(rows).toHaveLength(3);

    // Two processes hearing it went live at once: the reminders are claimed by one of them.
    const before = server.mail.messages.length;
    const told = await Promise.all([
      notifyChannelFollowers(server.built.context, meeting.id, 'live'),
      notifyChannelFollowers(server.built.context, meeting.id, 'live'),
    ]);
    // Dan follows (told by each call, as followers always were); Bob and Cat by one call only.
    expect(told.sort()).toEqual([1, 3]);
    const bobMail = await server.mail.waitFor(bob.email, (mail) => mail.subject.includes('is live now'));
    expect(bobMail.subject).toBe('Ann Live is live now: Launch <day>');
    expect(bobMail.text).toContain(`https://meet.example.com/channel/${meeting.slug}`);
    expect(bobMail.text).toContain('asked to be told');
    await server.mail.waitFor(cat.email, (mail) => mail.subject.includes('is live now'));
    const after = server.mail.messages.slice(before);
    expect(after.filter((mail) => mail.to.includes(bob.email))).toHaveLength(1);
    expect(after.filter((mail) => mail.to.includes(cat.email))).toHaveLength(1);
    expect(after.filter((mail) => mail.to.includes(eve.email))).toHaveLength(0);
    expect(after.filter((mail) => mail.to.includes(dan.email)).every((mail) => mail.text.includes('follow'))).toBe(
      true,
    );
    const notes = await server.post<{ data: { text: string }[] }>('get-user-notification.php', { token: cat.token });
    expect(notes.body.data!.data.filter((note) => note.text.includes('is live now'))).toHaveLength(1);
    expect(notes.body.data!.data[0]!.text).toContain('Launch &#60;day&#62;');
    expect((await reminderOf(bob, meeting.slug)).body.data!.data).toEqual({ is_set: true, is_sent: true });

    // Going live again tells the people who asked nothing more.
    await notifyChannelFollowers(server.built.context, meeting.id, 'live');
    expect(mailsTo(bob.email).filter((mail) => mail.subject.includes('is live now'))).toHaveLength(1);

    // Once it is live it is too late to ask, never too late to take it back.
    await server.database.handle.db.update(meetings).set({ state: 'live' }).where(eq(meetings.id, meeting.id));
    const late = await remind(eve, meeting.slug, 1);
    expect(late.httpStatus).toBe(409);
    expect(late.body.message).toBe('This broadcast has already started or ended.');
    expect((await remind(bob, meeting.slug, 0)).body.data!.data.is_set).toBe(false);
  });

  it('goes with the account and with the channel', async () => {
    const meeting = await schedule('Gone');
    const leaver = await server.signUp({ username: 'Leaver' });
    await remind(leaver, meeting.slug, 1);
    await remind(bob, meeting.slug, 1);
    const { db } = server.database.handle;
    await db.delete(users).where(eq(users.id, leaver.user.id));
    const left = await db.select().from(broadcastReminders).where(eq(broadcastReminders.meetingId, meeting.id));
    expect(left.map((row) => row.userId)).toEqual([bob.user.id]);
    const other = await server.signUp({ username: 'Other Host' });
    const otherChannel = await server.post<{ id: number }>('create-channel.php', {
      token: other.token,
      name: 'Other',
      slug: `other-${backend}`,
    });
    const start = Math.floor(Date.now() / 1000) + 3600;
    const scheduled = await server.post<{ url_slug: string }>('schedule-broadcast.php', {
      token: other.token,
      id: otherChannel.body.data!.id,
      name: 'Other show',
      start_time: start,
      end_time: start + 600,
    });
    await remind(bob, scheduled.body.data!.url_slug, 1);
    await db.delete(channels).where(eq(channels.id, otherChannel.body.data!.id));
    const byBob = await db.select().from(broadcastReminders).where(eq(broadcastReminders.userId, bob.user.id));
    expect(byBob.map((row) => row.meetingId)).toEqual([meeting.id]);
  });

  it('records layout and scene changes and screen shares on stage as chapters of the replay, counted from its start', async () => {
    const meeting = await insertMeeting(server, { hostId: ann.user.id, state: 'live' });
    const host = await rooms.enter({ meetId: meeting.slug, token: ann.token });
    // Starting on a holding screen is the first chapter.
    const started = await server.post<Started>('start-broadcast.php', {
      token: ann.token,
      meetId: meeting.slug,
      record: 1,
      scene: 'starting_soon',
    });
    expect(started.httpStatus).toBe(200);
    const backstage = await rooms.enter({ meetId: meeting.slug, display_name: 'Backstage Bo', backstage: '1' });
    const broadcastId = started.body.data!.data.id;
    const context = server.built.context;
    // What its composer does once the encode and the recording run: 10 s ago here.
    const startedAt = new Date(Date.now() - 10_000);
    expect(await moveBroadcast(context, broadcastId, 'live', { startedAt })).toBeDefined();
    const overlay = (layout: string) =>
      server.post('set-broadcast-overlay.php', { token: ann.token, meetId: meeting.slug, layout });
    const scene = (fields: { scene?: string; scene_message?: string }) =>
      server.post('set-broadcast-overlay.php', { token: ann.token, meetId: meeting.slug, ...fields });
    expect((await scene({ scene: 'live' })).httpStatus).toBe(200);
    expect((await overlay('bogus')).httpStatus).toBe(400);
    expect((await scene({ scene: 'intermission' })).httpStatus).toBe(400);
    expect((await overlay('spotlight')).httpStatus).toBe(200);
    expect((await overlay('spotlight')).httpStatus).toBe(200);
    const media = (screen: boolean) => ({ type: 'media.state', audio: true, video: true, screen });
    expect((await host.client.send(media(true))).ok).toBe(true);
    // Someone backstage sharing is not on the stream: no chapter.
    expect((await backstage.client.send(media(true))).ok).toBe(true);
    expect((await host.client.send(media(true))).ok).toBe(true);
    expect((await host.client.send(media(false))).ok).toBe(true);
    expect((await overlay('grid')).httpStatus).toBe(200);
    // A new scene is a chapter; its message changed, or the same scene again, is not.
    expect((await scene({ scene: 'be_right_back', scene_message: 'Coffee' })).httpStatus).toBe(200);
    expect((await scene({ scene_message: 'Tea' })).httpStatus).toBe(200);
    expect((await scene({ scene: 'be_right_back' })).httpStatus).toBe(200);
    expect((await scene({ scene: 'ending' })).httpStatus).toBe(200);
    const stored = async () =>
      server.database.handle.db.select().from(broadcastChapters).where(eq(broadcastChapters.broadcastId, broadcastId));
    await expect.poll(async () => (await stored()).length).toBe(8);

    const ended = await moveBroadcast(context, broadcastId, 'ended');
    expect(ended).toBeDefined();
    await attachRecording(context, broadcastId, { file: `broadcast-${broadcastId}.mp4`, seconds: 60 });
    const viewer = await server.post<{ data: BroadcastViewer }>('get-broadcast-viewer.php', { meetId: meeting.slug });
    const chapters = viewer.body.data!.data.recording!.chapters!;
    expect(chapters.map((chapter) => [chapter.kind, chapter.layout])).toEqual([
      ['scene_starting_soon', null],
      ['scene_live', null],
      ['layout', 'spotlight'],
      ['screen_share_start', null],
      ['screen_share_stop', null],
      ['layout', 'grid'],
      ['scene_be_right_back', null],
      ['scene_ending', null],
    ]);
    for (const chapter of chapters) {
      expect(chapter.offset).toBeGreaterThanOrEqual(9);
      expect(chapter.offset).toBeLessThanOrEqual(20);
    }
    const offsets = chapters.map((chapter) => chapter.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });
});
