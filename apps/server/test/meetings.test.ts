import type { Meeting } from '@meetcast/contracts';
import { eq, meetings, users } from '@meetcast/db';
import { verify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, addMeeting, meetingFields, nowSeconds, uniqueSlug } from './meeting-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

describe.each(BACKENDS)('meetings on %s', (backend) => {
  let server: TestServer, ann: SignedIn, bob: SignedIn;
  beforeAll(async () => void ([server, ann, bob] = await startWithPeople(backend, 'Ann', 'Bob')));
  afterAll(() => server.close());

  const check = (name: string | undefined, who = ann, extra = {}) =>
    server.post('check-meet-name.php', { token: who.token, name, ...extra });

  it('checks slugs: empty, too short, too long, invalid characters, free and taken', async () => {
    for (const empty of ['', '   ', undefined]) {
      const answer = await check(empty);
      expect(answer.httpStatus).toBe(400);
      expect(answer.body).toEqual({ status: 'error', message: 'please enter valid name' });
    }
    expect((await check('ab')).body.message).toBe('The meeting link must be at least 3 characters long.');
    expect((await check('a'.repeat(65))).body.message).toBe('The meeting link must be at most 64 characters long.');
    for (const bad of ['Team', 'team sync', 'héllo', 'a_b', 'a/b', 'drop;table']) {
      const answer = await check(bad);
      expect(answer.httpStatus).toBe(400);
      expect(answer.body.message).toBe('The meeting link may only contain lower-case letters, digits and hyphens.');
    }
    const slug = uniqueSlug();
    const free = await check(slug);
    expect(free.httpStatus).toBe(200);
    expect(free.body).toEqual({ status: 'success', message: 'This meeting link is available.' });
    expect((await check('a'.repeat(64))).httpStatus).toBe(200);
    expect((await check('abc')).httpStatus).toBe(200);

    const meeting = await addMeeting(server, ann, { slug });
    const taken = await check(slug, bob);
    expect(taken.httpStatus).toBe(409);
    expect(taken.body).toEqual({
      status: 'error',
      message: 'This meeting link is already taken. Please choose another one.',
    });
    // Editing: the meeting's own slug is free for its host, not for anyone else.
    expect((await check(slug, ann, { id: meeting.id })).httpStatus).toBe(200);
    expect((await check(slug, bob, { id: meeting.id })).httpStatus).toBe(409);
    expect((await server.post('check-meet-name.php', { name: slug })).httpStatus).toBe(401);
    const german = await server.post('check-meet-name.php', { token: ann.token, name: 'ab', lng: 'de' });
    expect(german.body.message).not.toBe('The meeting link must be at least 3 characters long.');
  });

  it('schedules a meeting with exactly the fields the dialog sends and echoes them back', async () => {
    const fields = meetingFields({ name: 'Planning', repeat: 7, description: 'Quarterly plan' });
    const answer = await server.post<Meeting>('add-meeting.php', { token: ann.token, ...fields });
    expect(answer.httpStatus).toBe(200);
    expect(answer.body.status).toBe('success');
    expect(answer.body.message).toBe('Your meeting has been scheduled.');
    expect(answer.body.data).toMatchObject({
      name: 'Planning',
      is_schedule: 1,
      start_time: fields.start_time,
      end_time: fields.end_time,
      is_private: 2,
      is_password: 2,
      password: null,
      slug: fields.slug,
      url_slug: fields.slug,
      repeat: 7,
      description: 'Quarterly plan',
      host_id: ann.user.id,
      host_name: 'Ann',
      is_host: true,
      state: 'scheduled',
      time_zone: 'UTC',
    });
    expect(answer.body.data?.id).toBeGreaterThan(0);
    // JSON bodies are accepted too.
    const json = await fetch(`${server.baseUrl}/api/add-meeting.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: ann.token, ...meetingFields(), start_time: nowSeconds() + DAY }),
    });
    expect(json.status).toBe(200);
  });

  it('re-checks every rule on the server with a clear message', async () => {
    const now = nowSeconds();
    const cases: [Record<string, string | number>, number, RegExp][] = [
      [{ start_time: now - HOUR, end_time: now }, 400, /start time cannot be in the past/],
      [{ start_time: now - DAY, end_time: now + HOUR }, 400, /start time cannot be in the past/],
      [{ start_time: now + DAY, end_time: now + DAY - 60 }, 400, /end time cannot be earlier than the start time/],
      [{ repeat: 3 }, 400, /0 \(does not repeat\), 1 \(every day\), 7 \(every week\), 14 \(every two weeks\) or 30/],
      [{ repeat: 'weekly' }, 400, /repeat/],
      [{ is_private: 3 }, 400, /2 for a public meeting or 1 for a private one/],
      [{ is_password: 0 }, 400, /1 to protect the meeting with a password or 2/],
      [{ is_schedule: 5 }, 400, /1 for a scheduled meeting or 0/],
      [{ is_private: 1, is_password: 1, password: '' }, 400, /enter a password for this private meeting/],
      [{ is_private: 1, is_password: 1, password: '   ' }, 400, /enter a password/],
      [{ is_private: 1, is_password: 1, password: 'x'.repeat(65) }, 400, /at most 64 characters/],
      [{ slug: '' }, 400, /^please enter valid name$/],
      [{ slug: 'No Caps' }, 400, /lower-case letters, digits and hyphens/],
      [{ slug: 'ab' }, 400, /at least 3 characters/],
      [{ name: '' }, 400, /name/],
      [{ start_time: 'tomorrow' }, 400, /start_time/],
      [{ time_zone: 'Mars/Olympus' }, 400, /Unknown time zone/],
      [{ invitees: 'not-an-address' }, 400, /invitees/],
      [{ invitee_contacts: 999999 }, 400, /contacts does not exist/],
    ];
    for (const [overrides, status, pattern] of cases) {
      const answer = await server.post('add-meeting.php', { token: ann.token, ...meetingFields(overrides) });
      expect({ overrides, status: answer.httpStatus }).toEqual({ overrides, status });
      expect(answer.body.status).toBe('error');
      expect(answer.body.message).toMatch(pattern);
    }
    for (const missing of ['name', 'start_time', 'end_time', 'slug']) {
      const fields = meetingFields();
      delete fields[missing];
      const answer = await server.post('add-meeting.php', { token: ann.token, ...fields });
      expect(answer.httpStatus).toBe(400);
    }
    expect((await server.post('add-meeting.php', meetingFields())).httpStatus).toBe(401);
    // A start chosen "now" in the minute-precise picker is still accepted; start equal to end too.
    const minute = now - (now % 60);
    expect(
      (
        await server.post('add-meeting.php', {
          token: ann.token,
          ...meetingFields({ start_time: minute, end_time: minute }),
        })
      ).httpStatus,
    ).toBe(200);
  });

  it('refuses a taken slug with 409, also when two requests race for it', async () => {
    const slug = uniqueSlug('race');
    const answers = await Promise.all(
      [ann, bob, ann].map((who) => server.post('add-meeting.php', { token: who.token, ...meetingFields({ slug }) })),
    );
    expect(answers.map((answer) => answer.httpStatus).sort()).toEqual([200, 409, 409]);
    const conflict = answers.find((answer) => answer.httpStatus === 409);
    expect(conflict?.body.message).toBe('This meeting link is already taken. Please choose another one.');
  });

  it('stores meeting passwords as argon2id hashes and shows the password only to host and invitees', async () => {
    const carol = await server.signUp({ username: 'Carol' });
    const meeting = await addMeeting(server, ann, {
      is_private: 1,
      is_password: 1,
      password: 'open sesame',
      invitees: carol.email,
    });
    expect(meeting).toMatchObject({ is_private: 1, is_password: 1, password: 'open sesame' });
    const [row] = await server.database.handle.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verify(row?.passwordHash ?? '', 'open sesame')).toBe(true);
    const asInvitee = await server.post<Meeting>('get-meeting.php', { token: carol.token, id: meeting.id });
    expect(asInvitee.body.data).toMatchObject({ password: 'open sesame', is_host: false, invitees: [] });
    expect((await server.post('get-meeting.php', { token: bob.token, id: meeting.id })).httpStatus).toBe(404);

    // A public meeting has no password, whatever the flag says.
    const open = await addMeeting(server, ann, { is_private: 2, is_password: 1, password: 'ignored' });
    expect(open).toMatchObject({ is_private: 2, is_password: 2, password: null });
    const privateOpen = await addMeeting(server, ann, { is_private: 1, is_password: 2, password: 'ignored' });
    expect(privateOpen).toMatchObject({ is_private: 1, is_password: 2, password: null });
  });

  it('starts instant meetings, with a generated password when the user wants one by default', async () => {
    const slug = uniqueSlug('now');
    const plain = await server.post<{ url_slug: string; password?: string }>('add-instant-meeting.php', {
      token: ann.token,
      name: 'Quick call',
      slug,
    });
    expect(plain.httpStatus).toBe(200);
    expect(plain.body.data).toEqual({ url_slug: slug });
    const again = await server.post('add-instant-meeting.php', { token: bob.token, name: 'Other', slug });
    expect(again.httpStatus).toBe(409);
    expect((await server.post('add-instant-meeting.php', { token: ann.token, name: 'x', slug: '' })).body.message).toBe(
      'please enter valid name',
    );
    expect((await server.post('add-instant-meeting.php', { token: ann.token, slug: uniqueSlug() })).httpStatus).toBe(
      400,
    );

    await server.database.handle.db
      .update(users)
      .set({ defaultMeetingPassword: true })
      .where(eq(users.id, bob.user.id));
    const protectedSlug = uniqueSlug('locked');
    const locked = await server.post<{ url_slug: string; password?: string }>('add-instant-meeting.php', {
      token: bob.token,
      name: 'Private call',
      slug: protectedSlug,
    });
    expect(locked.body.data?.url_slug).toBe(protectedSlug);
    expect(locked.body.data?.password).toMatch(/^[a-z2-9]{8}$/);
    const [row] = await server.database.handle.db.select().from(meetings).where(eq(meetings.slug, protectedSlug));
    expect(row).toMatchObject({ isSchedule: 0, isPrivate: 1, isPassword: 1, hostId: bob.user.id });
    expect(await verify(row?.passwordHash ?? '', locked.body.data?.password ?? '')).toBe(true);
  });

  it("keeps other people's meetings out of reach: B cannot read, change, cancel or delete A's", async () => {
    const meeting = await addMeeting(server, ann, { name: 'Secret' });
    for (const call of ['get-meeting.php', 'delete-meeting.php', 'cancel-meeting.php', 'get-meeting-ics.php']) {
      const answer = await server.post(call, { token: bob.token, id: meeting.id });
      expect({ call, status: answer.httpStatus }).toEqual({ call, status: 404 });
    }
    const edit = await server.post('edit-meeting.php', {
      token: bob.token,
      id: meeting.id,
      ...meetingFields({ slug: meeting.slug, name: 'Hijacked' }),
    });
    expect(edit.httpStatus).toBe(404);
    const still = await server.post<Meeting>('get-meeting.php', { token: ann.token, id: meeting.id });
    expect(still.body.data?.name).toBe('Secret');

    // An invitee sees the meeting but only the host changes it.
    const invited = await addMeeting(server, ann, { invitees: bob.email });
    expect((await server.post('get-meeting.php', { token: bob.token, id: invited.id })).httpStatus).toBe(200);
    for (const call of ['delete-meeting.php', 'cancel-meeting.php']) {
      const answer = await server.post(call, { token: bob.token, id: invited.id });
      expect(answer.httpStatus).toBe(403);
      expect(answer.body.message).toBe('Only the host can change this meeting.');
    }
  });

  it('edits a meeting with the same rules, keeping an unchanged past start and the old password', async () => {
    const meeting = await addMeeting(server, ann, { is_private: 1, is_password: 1, password: 'first-pass' });
    const edited = await server.post<Meeting>('edit-meeting.php', {
      token: ann.token,
      id: meeting.id,
      ...meetingFields({
        name: 'Renamed',
        slug: meeting.slug,
        start_time: meeting.start_time,
        end_time: meeting.end_time + HOUR,
        is_private: 1,
        is_password: 1,
        password: '',
        repeat: 14,
      }),
    });
    expect(edited.httpStatus).toBe(200);
    expect(edited.body.data).toMatchObject({ name: 'Renamed', repeat: 14, password: 'first-pass' });
    const bad = await server.post('edit-meeting.php', {
      token: ann.token,
      id: meeting.id,
      ...meetingFields({ slug: meeting.slug, start_time: nowSeconds() - DAY, end_time: nowSeconds() }),
    });
    expect(bad.body.message).toMatch(/start time cannot be in the past/);
    const other = await addMeeting(server, ann);
    const clash = await server.post('edit-meeting.php', {
      token: ann.token,
      id: meeting.id,
      ...meetingFields({ slug: other.slug }),
    });
    expect(clash.httpStatus).toBe(409);
    // A series that began in the past keeps its start through an edit of its name.
    const [row] = await server.database.handle.db
      .update(meetings)
      .set({
        startTime: new Date((nowSeconds() - 10 * DAY) * 1000),
        endTime: new Date((nowSeconds() - 10 * DAY + HOUR) * 1000),
      })
      .where(eq(meetings.id, other.id))
      .returning();
    const rename = await server.post<Meeting>('edit-meeting.php', {
      token: ann.token,
      id: other.id,
      ...meetingFields({
        slug: other.slug,
        name: 'Old series',
        repeat: 7,
        start_time: Math.floor((row?.startTime.getTime() ?? 0) / 1000),
        end_time: Math.floor((row?.endTime.getTime() ?? 0) / 1000),
      }),
    });
    expect(rename.httpStatus).toBe(200);
  });

  it('documents every call in the OpenAPI description', async () => {
    const response = await fetch(`${server.baseUrl}/api/openapi.json`);
    const document = (await response.json()) as { paths: Record<string, unknown> };
    for (const call of [
      'check-meet-name.php',
      'add-meeting.php',
      'add-instant-meeting.php',
      'edit-meeting.php',
      'get-meeting.php',
      'cancel-meeting.php',
      'delete-meeting.php',
      'get-upcoming-meetings.php',
      'get-recent-meetings.php',
      'get-dashboard.php',
      'get-meeting-ics.php',
      'get-events.php',
      'add-event.php',
      'edit-event.php',
      'delete-event.php',
      'get-calendar.php',
      'get-calendar-feed.php',
      'reset-calendar-feed.php',
    ]) {
      expect(document.paths[`/api/${call}`], call).toBeDefined();
    }
    expect(document.paths['/api/calendar-feed/{file}']).toBeDefined();
  });
});
