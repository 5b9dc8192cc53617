import { expectedPluralKeys, LANGUAGES, REPEAT, type AdminDashboard, type AdminEvent } from '@meetcast/contracts';
import { channels, contactMessages, eq, meetingAttendance, meetingExceptions, meetings, users } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFor, englishCatalog } from '../src/i18n/messages.js';
import { HOUR, rawPost, seedCalendarEvent, seedChannel, seedContactMessage, seedMeeting } from './admin-fixtures.js';
import { BACKENDS } from './test-database.js';
import { startTestServer, type SignedIn, type TestServer } from './test-server.js';

interface Page<T> {
  data: T[];
  total: number;
  page: number;
  per_page: number;
}
type Row = { id: number; username: string; email: string; status: string; meetings_count: number };

describe.each(BACKENDS)('admin tables and actions on %s', (backend) => {
  let server: TestServer;
  let admin: SignedIn;
  let people: SignedIn[];
  const ended: number[] = [];

  beforeAll(async () => {
    server = await startTestServer(backend);
    server.built.context.events.on('meeting.ended', ({ meetingIds }) => {
      ended.push(...meetingIds);
    });
    admin = await server.signUp({ username: 'Root' });
    people = [];
    for (const name of ['Zoe Zimmer', 'Adam Apple', 'Mia Miller', 'Mike Moss']) {
      people.push(
        await server.signUp({ username: name, email: `${name.split(' ')[0]?.toLowerCase()}.${backend}@example.org` }),
      );
    }
  });
  afterAll(() => server.close());

  const ask = <T>(name: string, fields: Record<string, string | number | undefined> = {}) =>
    server.post<T>(name, { ...fields, token: admin.token });

  it('searches, sorts and pages users', async () => {
    const all = await ask<Page<Row>>('admin-get-users.php', { sort: 'username', direction: 'asc' });
    expect(all.body.data?.total).toBe(5);
    expect(all.body.data?.data.map((user) => user.username)).toEqual([
      'Adam Apple',
      'Mia Miller',
      'Mike Moss',
      'Root',
      'Zoe Zimmer',
    ]);
    const searched = await ask<Page<Row>>('admin-get-users.php', { search: 'MI', sort: 'email', direction: 'desc' });
    expect(searched.body.data?.data.map((user) => user.username)).toEqual(['Mike Moss', 'Mia Miller']);
    const byEmail = await ask<Page<Row>>('admin-get-users.php', { search: `zoe.${backend}@` });
    expect(byEmail.body.data?.data.map((user) => user.username)).toEqual(['Zoe Zimmer']);
    const literal = await ask<Page<Row>>('admin-get-users.php', { search: '%' });
    expect(literal.body.data?.total).toBe(0);
    const paged = await ask<Page<Row>>('admin-get-users.php', { sort: 'id', page: 2, per_page: 2 });
    expect(paged.body.data).toMatchObject({ total: 5, page: 2, per_page: 2 });
    expect(paged.body.data?.data.map((user) => user.id)).toEqual([people[1]?.user.id, people[2]?.user.id]);
    const admins = await ask<Page<Row>>('admin-get-users.php', { role_id: 1 });
    expect(admins.body.data?.data.map((user) => user.id)).toEqual([admin.user.id]);
    const bad = await ask('admin-get-users.php', { sort: 'password_hash' });
    expect(bad.httpStatus).toBe(400);
    expect((await ask('admin-get-users.php', { per_page: 1000 })).httpStatus).toBe(400);
  });

  it('shows one user with their meetings and channel, and sends a password reset', async () => {
    const mia = people[2] as SignedIn;
    await seedMeeting(server, mia.user.id, { name: 'Mia standup' });
    const channel = await seedChannel(server, mia.user.id, 'Mia cooks');
    const detail = await ask<{
      data: {
        user: Row;
        meetings: { name: string }[];
        channel: { id: number; name: string } | null;
        active_sessions: number;
      };
    }>('admin-get-user.php', { id: mia.user.id });
    expect(detail.body.data?.data).toMatchObject({
      user: { id: mia.user.id, status: 'active', meetings_count: 1 },
      meetings: [{ name: 'Mia standup' }],
      channel: { id: channel.id, name: 'Mia cooks' },
      active_sessions: 1,
    });
    expect((await ask('admin-get-user.php', { id: 999_999 })).httpStatus).toBe(404);

    const reset = await ask('admin-send-password-reset.php', { id: mia.user.id });
    expect(reset.httpStatus).toBe(200);
    const mail = await server.mail.waitFor(mia.email, (m) => /password reset code/.test(m.subject));
    expect(mail.text).toMatch(/An administrator has asked/);
    const code = /\b(\d{6})\b/.exec(mail.subject)?.[1] ?? '';
    const changed = await server.post('reset-password.php', { email: mia.email, code, password: 'a brand new secret' });
    expect(changed.httpStatus).toBe(200);
    expect((await server.post('login.php', { email: mia.email, password: 'a brand new secret' })).httpStatus).toBe(200);
  });

  it('bulk-disables, enables and deletes users through JSON arrays and repeated fields', async () => {
    const extra = [await server.signUp(), await server.signUp()];
    const ids = extra.map((person) => person.user.id);
    const json = await rawPost(server, 'admin-disable-users.php', { token: admin.token, ids });
    expect(json.status).toBe(200);
    expect(((await json.json()) as { data: { ids: number[] } }).data.ids.sort()).toEqual(ids.sort());
    const form = new URLSearchParams([
      ['token', admin.token],
      ...ids.map((id) => ['ids', String(id)] as [string, string]),
    ]);
    const enabled = await fetch(`${server.baseUrl}/api/admin-enable-users.php`, { method: 'POST', body: form });
    expect(enabled.status).toBe(200);
    const live = await seedMeeting(server, ids[0] as number, { state: 'live', present: 1, startOffset: -60 });
    const deleted = await ask<{ ids: number[] }>('admin-delete-users.php', { ids: ids.join(',') });
    expect(deleted.body.data?.ids.sort()).toEqual(ids.sort());
    expect(
      await server.built.context.db
        .select()
        .from(users)
        .where(eq(users.id, ids[0] as number)),
    ).toEqual([]);
    expect(await server.built.context.db.select().from(meetings).where(eq(meetings.id, live.id))).toEqual([]);
    expect(ended).toContain(live.id);
    expect((await server.post('tokenverify.php', { token: extra[0]?.token })).httpStatus).toBe(401);
    expect((await ask('admin-delete-users.php', { ids: '' })).httpStatus).toBe(400);
  });

  it('lists meetings, ends a live one for everyone and deletes meetings', async () => {
    const host = people[3] as SignedIn;
    const live = await seedMeeting(server, host.user.id, {
      name: 'Town hall',
      state: 'live',
      present: 3,
      startOffset: -600,
    });
    const later = await seedMeeting(server, host.user.id, { name: 'Later' });
    const listed = await ask<Page<{ id: number; participants: number; host: { id: number }; state: string }>>(
      'admin-get-meetings.php',
      {
        search: 'town',
      },
    );
    expect(listed.body.data?.data).toEqual([
      expect.objectContaining({
        id: live.id,
        participants: 3,
        state: 'live',
        host: expect.objectContaining({ id: host.user.id }),
      }),
    ]);
    const liveOnly = await ask<Page<{ id: number }>>('admin-get-meetings.php', { state: 'live' });
    expect(liveOnly.body.data?.data.map((meeting) => meeting.id)).toContain(live.id);

    expect((await ask('admin-end-meeting.php', { id: later.id })).httpStatus).toBe(409);
    const end = await ask('admin-end-meeting.php', { id: live.id });
    expect(end.httpStatus).toBe(200);
    expect(ended).toContain(live.id);
    const [row] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, live.id));
    expect(row?.state).toBe('ended');
    expect(row?.endedAt).not.toBeNull();
    const attendance = await server.built.context.db
      .select()
      .from(meetingAttendance)
      .where(eq(meetingAttendance.meetingId, live.id));
    expect(attendance.every((entry) => entry.leftAt !== null)).toBe(true);
    expect((await ask('admin-end-meeting.php', { id: live.id })).httpStatus).toBe(409);

    expect((await ask('admin-delete-meeting.php', { id: later.id })).httpStatus).toBe(200);
    expect(await server.built.context.db.select().from(meetings).where(eq(meetings.id, later.id))).toEqual([]);
    expect((await ask('admin-delete-meeting.php', { id: later.id })).httpStatus).toBe(404);
  });

  it('hides, unhides and deletes channels', async () => {
    const channel = await seedChannel(server, (people[0] as SignedIn).user.id, 'Zoe live');
    expect((await ask('admin-hide-channel.php', { id: channel.id })).httpStatus).toBe(200);
    const hidden = await ask<Page<{ id: number; is_hidden: boolean }>>('admin-get-channels.php', { hidden: 'yes' });
    expect(hidden.body.data?.data.map((row) => row.id)).toEqual([channel.id]);
    const [row] = await server.built.context.db.select().from(channels).where(eq(channels.id, channel.id));
    expect(row?.hiddenAt).not.toBeNull();
    // Hidden means gone from browsing and unavailable on its public page, for anyone but its owner and admins.
    const browse = () => server.post<{ data: { id: number }[] }>('get-channels.php', { search: 'zoe live' });
    expect((await browse()).body.data?.data.map((listed) => listed.id)).toEqual([]);
    expect((await server.post('get-channel.php', { slug: channel.slug })).httpStatus).toBe(404);
    expect((await ask('admin-unhide-channel.php', { id: channel.id })).httpStatus).toBe(200);
    expect((await browse()).body.data?.data.map((listed) => listed.id)).toEqual([channel.id]);
    expect((await server.post('get-channel.php', { slug: channel.slug })).httpStatus).toBe(200);
    const visible = await ask<Page<{ id: number; is_hidden: boolean; owner: { id: number } }>>(
      'admin-get-channels.php',
      { search: 'zoe live' },
    );
    expect(visible.body.data?.data).toEqual([expect.objectContaining({ id: channel.id, is_hidden: false })]);
    expect((await ask('admin-delete-channel.php', { id: channel.id })).httpStatus).toBe(200);
    expect((await ask('admin-hide-channel.php', { id: channel.id })).httpStatus).toBe(404);
  });

  it('sets contact message status, replies by e-mail and deletes', async () => {
    const message = await seedContactMessage(server);
    const waiting = await ask<Page<{ id: number; status: string }>>('admin-get-contact-messages.php', {
      status: 'new',
    });
    expect(waiting.body.data?.data.map((row) => row.id)).toContain(message.id);
    const read = await ask<{ data: { status: string } }>('admin-update-contact-message.php', {
      id: message.id,
      status: 'read',
    });
    expect(read.body.data?.data.status).toBe('read');
    expect((await ask('admin-update-contact-message.php', { id: message.id, status: 'spam' })).httpStatus).toBe(400);

    const reply = await ask<{ data: { status: string } }>('admin-reply-contact-message.php', {
      id: message.id,
      message: 'It is free.\nEnjoy!',
    });
    expect(reply.httpStatus).toBe(200);
    expect(reply.body.data?.data.status).toBe('answered');
    const mail = await server.mail.waitFor(message.email);
    expect(mail.subject).toBe('Re: Pricing question');
    expect(mail.text).toContain('It is free.');
    expect(mail.text).toContain('> how much is it?');

    expect((await ask('admin-delete-contact-message.php', { id: message.id })).httpStatus).toBe(200);
    expect(
      await server.built.context.db.select().from(contactMessages).where(eq(contactMessages.id, message.id)),
    ).toEqual([]);
  });

  it('lists calendar events and expanded meeting occurrences, and deletes them', async () => {
    const owner = people[1] as SignedIn;
    const event = await seedCalendarEvent(server, owner.user.id, 3 * HOUR);
    const weekly = await seedMeeting(server, owner.user.id, {
      name: 'Weekly review',
      repeat: REPEAT.weekly,
      startOffset: 2 * HOUR,
    });
    const start = Math.floor(Date.now() / 1000);
    const range = { start, end: start + 28 * 86_400 };
    const listed = await ask<{ data: AdminEvent[]; truncated: boolean }>('admin-get-events.php', {
      ...range,
      search: 'weekly review',
    });
    const occurrences = listed.body.data?.data ?? [];
    expect(occurrences).toHaveLength(4);
    expect(occurrences.map((entry) => entry.start_time - (occurrences[0]?.start_time ?? 0))).toEqual(
      [0, 7, 14, 21].map((d) => d * 86_400),
    );
    const second = occurrences[1] as AdminEvent;

    const cancel = await ask('admin-delete-event.php', {
      kind: 'meeting',
      id: weekly.id,
      occurrence_start: second.start_time,
    });
    expect(cancel.httpStatus).toBe(200);
    const exceptions = await server.built.context.db
      .select()
      .from(meetingExceptions)
      .where(eq(meetingExceptions.meetingId, weekly.id));
    expect(exceptions).toHaveLength(1);
    const after = await ask<{ data: AdminEvent[] }>('admin-get-events.php', { ...range, search: 'weekly review' });
    expect(after.body.data?.data.map((entry) => entry.start_time)).not.toContain(second.start_time);
    expect((await ask('admin-delete-event.php', { kind: 'meeting', id: weekly.id })).httpStatus).toBe(400);
    expect(
      (await ask('admin-delete-event.php', { kind: 'meeting', id: weekly.id, occurrence_start: second.start_time + 1 }))
        .httpStatus,
    ).toBe(404);

    const events = await ask<{ data: AdminEvent[] }>('admin-get-events.php', { ...range, kind: 'event' });
    expect(events.body.data?.data.map((entry) => entry.key)).toContain(`event-${event.id}`);
    expect((await ask('admin-delete-event.php', { kind: 'event', id: event.id })).httpStatus).toBe(200);
    expect((await ask('admin-delete-event.php', { kind: 'event', id: event.id })).httpStatus).toBe(404);
    expect((await ask('admin-get-events.php', { start: range.end, end: range.start })).httpStatus).toBe(400);
    expect((await ask('admin-get-events.php', { start, end: start + 500 * 86_400 })).httpStatus).toBe(400);
  });

  it('computes the dashboard figures from the data', async () => {
    const host = people[0] as SignedIn;
    const live = await seedMeeting(server, host.user.id, {
      name: 'Live now',
      state: 'live',
      present: 2,
      startOffset: -1800,
    });
    // Someone who stayed 30 minutes this month.
    const now = Date.now();
    await server.built.context.db.insert(meetingAttendance).values({
      meetingId: live.id,
      displayName: 'Left',
      joinedAt: new Date(now - 45 * 60_000),
      leftAt: new Date(now - 15 * 60_000),
    });
    await seedContactMessage(server);
    const answer = await ask<{ data: AdminDashboard }>('admin-dashboard.php');
    const dashboard = answer.body.data?.data as AdminDashboard;
    const allUsers = await server.built.context.db.select().from(users);
    expect(dashboard.users.total).toBe(allUsers.length);
    expect(dashboard.users.new_this_week).toBe(allUsers.length);
    expect(dashboard.meetings.live_now).toBe(1);
    expect(dashboard.live_meetings).toEqual([
      expect.objectContaining({ id: live.id, participants: 2, name: 'Live now' }),
    ]);
    expect(dashboard.meetings.minutes_this_month).toBeGreaterThanOrEqual(new Date().getUTCDate() === 1 ? 0 : 30);
    expect(dashboard.contact_messages.waiting).toBeGreaterThanOrEqual(1);
    expect(dashboard.signups_per_week).toHaveLength(12);
    expect(dashboard.signups_per_week.at(-1)?.count).toBe(allUsers.length);
    const allMeetings = await server.built.context.db.select().from(meetings);
    expect(dashboard.meetings_per_week.reduce((sum, week) => sum + week.count, 0)).toBe(allMeetings.length);
    const monday = new Date((dashboard.signups_per_week.at(-1)?.week_start ?? 0) * 1000);
    expect(monday.getUTCDay()).toBe(1);
    expect(dashboard.audit_log.length).toBeGreaterThan(0);
    expect(dashboard.audit_log[0]?.actor?.id).toBe(admin.user.id);
  });

  it('answers in the language the request asks for', async () => {
    const german = await ask('admin-get-user.php', { id: 999_999, lng: 'de' });
    expect(german.body.message).toBe('Diesen Benutzer gibt es nicht.');
    const arabic = await ask('admin-get-user.php', { id: 999_999, lng: 'ar' });
    expect(arabic.body.message).toBe('هذا المستخدم غير موجود.');
    const english = new Map(Object.entries(englishCatalog()).filter(([key]) => key.startsWith('admin.')));
    for (const language of LANGUAGES) {
      const catalog = catalogFor(language);
      for (const key of expectedPluralKeys(english, language).keys()) {
        expect(catalog[key], `${language} ${key}`).toBeTruthy();
      }
    }
  });

  it('exports each table as CSV', async () => {
    const users = await rawPost(server, 'admin-export.php', { token: admin.token, table: 'users', search: 'mi' });
    expect(users.status).toBe(200);
    expect(users.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(users.headers.get('content-disposition')).toMatch(/attachment; filename="meetcast-users-/);
    const lines = (await users.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id,username,email,role_id,status,meetings_count,created_at,disabled_at');
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(['Mia Miller', 'Mike Moss']);
    for (const table of ['meetings', 'channels', 'contact_messages', 'events', 'audit_log']) {
      const answer = await rawPost(server, 'admin-export.php', { token: admin.token, table });
      expect(answer.status, table).toBe(200);
      const bytes = new Uint8Array(await answer.arrayBuffer());
      // A UTF-8 byte-order mark first, for spreadsheet programs, then the header row.
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(new TextDecoder().decode(bytes).split('\r\n')[0]).toMatch(/^\w+,\w+/);
    }
    const formula = await seedContactMessage(server, 'formula@example.com');
    await server.built.context.db
      .update(contactMessages)
      .set({ subject: '=HYPERLINK("x")' })
      .where(eq(contactMessages.id, formula.id));
    const exported = await (
      await rawPost(server, 'admin-export.php', { token: admin.token, table: 'contact_messages', search: 'formula@' })
    ).text();
    expect(exported).toContain(`"'=HYPERLINK(""x"")"`);
    expect(exported).toContain('"Hello,\nhow much is it?"');
    expect((await rawPost(server, 'admin-export.php', { token: admin.token, table: 'sessions' })).status).toBe(400);
  });
});
