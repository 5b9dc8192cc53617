import type { Dashboard, MeetingPage } from '@meetcast/contracts';
import { contacts, eq, meetingAttendance, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, addMeeting, nowSeconds, uniqueSlug, upcoming } from './meeting-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

describe.each(BACKENDS)('meeting lists on %s', (backend) => {
  let server: TestServer, ann: SignedIn, bob: SignedIn;
  beforeAll(async () => void ([server, ann, bob] = await startWithPeople(backend, 'Ann', 'Bob')));
  afterAll(() => server.close());

  const ofMeeting = (page: MeetingPage, id: number) => page.data.filter((item) => item.id === id);

  it('expands a weekly meeting into its next occurrences, soonest first, for host and invitee', async () => {
    const start = nowSeconds() + 2 * HOUR;
    const weekly = await addMeeting(server, ann, {
      name: 'Weekly review',
      start_time: start,
      end_time: start + HOUR,
      repeat: 7,
      invitees: bob.email,
    });
    const once = await addMeeting(server, ann, {
      name: 'One-off',
      start_time: start + HOUR,
      end_time: start + 2 * HOUR,
    });
    const list = await upcoming(server, ann);
    const occurrences = ofMeeting(list, weekly.id);
    expect(occurrences.length).toBeGreaterThanOrEqual(12);
    expect(occurrences.length).toBeLessThanOrEqual(14);
    expect(occurrences[0]).toMatchObject({
      occurrence_start: start,
      occurrence_end: start + HOUR,
      name: 'Weekly review',
    });
    expect((occurrences[1]?.occurrence_start ?? 0) - start).toBe(7 * DAY);
    expect(ofMeeting(list, once.id)).toHaveLength(1);
    const starts = list.data.map((item) => item.occurrence_start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(list.data[1]?.id).toBe(once.id);

    const bobs = await upcoming(server, bob);
    expect(ofMeeting(bobs, weekly.id).length).toBe(occurrences.length);
    expect(ofMeeting(bobs, weekly.id)[0]).toMatchObject({ is_host: false, invitees: [] });
    expect(ofMeeting(bobs, once.id)).toHaveLength(0);
    expect(ofMeeting(list, weekly.id)[0]?.invitees).toEqual([
      { email: bob.email, user_id: bob.user.id, username: 'Bob' },
    ]);
  });

  it('paginates and searches', async () => {
    const carol = await server.signUp({ username: 'Carol' });
    for (let index = 0; index < 5; index += 1) {
      await addMeeting(server, carol, { name: `Standup ${index}`, start_time: nowSeconds() + (index + 1) * DAY });
    }
    await addMeeting(server, carol, {
      name: 'Budget 100% review_x',
      slug: uniqueSlug('budget'),
      start_time: nowSeconds() + 12 * HOUR,
    });
    const first = await server.post<MeetingPage>('get-upcoming-meetings.php', { token: carol.token, per_page: 2 });
    expect(first.body.data).toMatchObject({ total: 6, page: 1, per_page: 2 });
    expect(first.body.data?.data.map((item) => item.name)).toEqual(['Budget 100% review_x', 'Standup 0']);
    const third = await server.post<MeetingPage>('get-upcoming-meetings.php', {
      token: carol.token,
      per_page: 2,
      page: 3,
    });
    expect(third.body.data?.data.map((item) => item.name)).toEqual(['Standup 3', 'Standup 4']);
    const beyond = await server.post<MeetingPage>('get-upcoming-meetings.php', { token: carol.token, page: 9 });
    expect(beyond.body.data).toMatchObject({ total: 6, data: [] });
    const search = await upcoming(server, carol, { search: 'standup 3' });
    expect(search.data.map((item) => item.name)).toEqual(['Standup 3']);
    expect((await upcoming(server, carol, { search: '100%' })).total).toBe(1);
    expect((await upcoming(server, carol, { search: '_' })).total).toBe(1);
    expect((await upcoming(server, carol, { search: '%' })).total).toBe(1);
    const bad = await server.post('get-upcoming-meetings.php', { token: carol.token, per_page: 1000 });
    expect(bad.httpStatus).toBe(400);
    expect((await server.post('get-upcoming-meetings.php', { token: carol.token, page: 0 })).httpStatus).toBe(400);
  });

  it('cancels one occurrence or the whole series, and deletes', async () => {
    const dave = await server.signUp({ username: 'Dave' });
    const start = nowSeconds() + DAY;
    const daily = await addMeeting(server, dave, { start_time: start, end_time: start + HOUR, repeat: 1 });
    const second = start + DAY;
    const cancel = await server.post('cancel-meeting.php', {
      token: dave.token,
      id: daily.id,
      occurrence_start: second,
    });
    expect(cancel.httpStatus).toBe(200);
    expect(cancel.body.message).toBe('This occurrence of the meeting has been cancelled.');
    const after = ofMeeting(await upcoming(server, dave), daily.id).map((item) => item.occurrence_start);
    expect(after.slice(0, 2)).toEqual([start, start + 2 * DAY]);
    const twice = await server.post('cancel-meeting.php', {
      token: dave.token,
      id: daily.id,
      occurrence_start: second,
    });
    expect(twice.httpStatus).toBe(409);
    const wrong = await server.post('cancel-meeting.php', {
      token: dave.token,
      id: daily.id,
      occurrence_start: second + 60,
    });
    expect(wrong.httpStatus).toBe(404);
    expect(wrong.body.message).toBe('The meeting does not take place at that time.');

    const series = await server.post('cancel-meeting.php', { token: dave.token, id: daily.id });
    expect(series.body.message).toBe('The meeting has been cancelled.');
    expect(ofMeeting(await upcoming(server, dave), daily.id)).toHaveLength(0);
    expect((await server.post('cancel-meeting.php', { token: dave.token, id: daily.id })).httpStatus).toBe(409);
    const fields = {
      token: dave.token,
      id: daily.id,
      name: 'x',
      slug: daily.slug,
      start_time: start,
      end_time: start + 60,
    };
    const locked = await server.post('edit-meeting.php', fields);
    expect(locked.httpStatus).toBe(409);
    const shown = await server.post<{ state: string }>('get-meeting.php', { token: dave.token, id: daily.id });
    expect(shown.body.data?.state).toBe('cancelled');

    const doomed = await addMeeting(server, dave);
    expect((await server.post('delete-meeting.php', { token: dave.token, id: doomed.id })).httpStatus).toBe(200);
    expect((await server.post('get-meeting.php', { token: dave.token, id: doomed.id })).httpStatus).toBe(404);
    expect((await server.post('delete-meeting.php', { token: dave.token, id: doomed.id })).httpStatus).toBe(404);
  });

  it('lists recent meetings with when they ran, for how long and who joined', async () => {
    const erin = await server.signUp({ username: 'Erin' });
    const db = server.database.handle.db;
    const now = Date.now();
    const [past] = await db
      .insert(meetings)
      .values({
        hostId: erin.user.id,
        name: 'Retro',
        slug: uniqueSlug('retro'),
        isSchedule: 1,
        startTime: new Date(now - 3 * 86_400_000),
        endTime: new Date(now - 3 * 86_400_000 + 3_600_000),
        repeat: 1,
      })
      .returning();
    if (!past) throw new Error('insert failed');
    const occurrenceStart = now - 2 * 86_400_000;
    await db.insert(meetingAttendance).values([
      {
        meetingId: past.id,
        userId: erin.user.id,
        displayName: 'Erin',
        joinedAt: new Date(occurrenceStart - 5 * 60_000),
        leftAt: new Date(occurrenceStart + 40 * 60_000),
      },
      {
        meetingId: past.id,
        userId: null,
        displayName: 'Guest',
        joinedAt: new Date(occurrenceStart + 10 * 60_000),
        leftAt: new Date(occurrenceStart + 50 * 60_000),
      },
    ]);
    const recent = await server.post<MeetingPage>('get-recent-meetings.php', { token: erin.token });
    const items = recent.body.data?.data ?? [];
    // Three days ago, two days ago, yesterday; today's 10:00-ish occurrence has not ended yet or has.
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.map((item) => item.occurrence_start)).toEqual(
      [...items.map((item) => item.occurrence_start)].sort((a, b) => b - a),
    );
    const ran = items.find((item) => item.occurrence_start === Math.floor(occurrenceStart / 1000));
    expect(ran?.attendance).toEqual({
      started_at: Math.floor((occurrenceStart - 5 * 60_000) / 1000),
      ended_at: Math.floor((occurrenceStart + 50 * 60_000) / 1000),
      duration_seconds: 55 * 60,
      participants: [
        { name: 'Erin', user_id: erin.user.id },
        { name: 'Guest', user_id: null },
      ],
    });
    const other = items.find((item) => item.occurrence_start === Math.floor((now - 3 * 86_400_000) / 1000));
    expect(other?.attendance).toBeNull();
    expect((await server.post<MeetingPage>('get-recent-meetings.php', { token: bob.token })).body.data?.total).toBe(0);
    expect((await server.post('get-recent-meetings.php', {})).httpStatus).toBe(401);
  });

  it('summarises the dashboard: next meetings, this week, hours met, contacts, 8 weeks', async () => {
    const fay = await server.signUp({ username: 'Fay' });
    const db = server.database.handle.db;
    const soon = nowSeconds() + HOUR;
    const next = await addMeeting(server, fay, { name: 'Soon', start_time: soon, end_time: soon + HOUR });
    await db.insert(contacts).values([
      { ownerId: fay.user.id, name: 'One', email: 'one@example.com' },
      { ownerId: fay.user.id, name: 'Two', email: 'two@example.com' },
      { ownerId: fay.user.id, name: 'Gone', email: 'gone@example.com', deletedAt: new Date() },
    ]);
    const [past] = await db
      .insert(meetings)
      .values({
        hostId: fay.user.id,
        name: 'Earlier',
        slug: uniqueSlug('earlier'),
        isSchedule: 1,
        startTime: new Date(Date.now() - 20 * 86_400_000),
        endTime: new Date(Date.now() - 20 * 86_400_000 + 5_400_000),
      })
      .returning();
    await db.insert(meetingAttendance).values({
      meetingId: past?.id ?? 0,
      userId: fay.user.id,
      displayName: 'Fay',
      joinedAt: new Date(Date.now() - 20 * 86_400_000),
      leftAt: new Date(Date.now() - 20 * 86_400_000 + 5_400_000),
    });
    const answer = await server.post<Dashboard>('get-dashboard.php', { token: fay.token });
    expect(answer.httpStatus).toBe(200);
    const dashboard = answer.body.data;
    expect(dashboard?.next_meetings.map((item) => item.id)).toEqual([next.id]);
    expect(dashboard?.hours_met).toBe(1.5);
    expect(dashboard?.contacts_count).toBe(2);
    expect(dashboard?.meetings_per_week).toHaveLength(8);
    const weeks = dashboard?.meetings_per_week ?? [];
    expect(weeks.map((week) => week.week_start)).toEqual(
      [...weeks.map((week) => week.week_start)].sort((a, b) => a - b),
    );
    expect(weeks.reduce((sum, week) => sum + week.count, 0)).toBe(2);
    expect(dashboard?.meetings_this_week).toBe(weeks[7]?.count);
    expect(new Date((weeks[7]?.week_start ?? 0) * 1000).getUTCDay()).toBe(1);
    const bobs = await server.post<Dashboard>('get-dashboard.php', { token: bob.token });
    expect(bobs.body.data?.next_meetings.some((item) => item.id === next.id)).toBe(false);
    expect(bobs.body.data?.contacts_count).toBe(0);
    await db.update(meetings).set({ name: 'Renamed' }).where(eq(meetings.id, next.id));
  });
});
