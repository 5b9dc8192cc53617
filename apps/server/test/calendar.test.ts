import type { CalendarData, CalendarEvent } from '@meetcast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, addMeeting, nowSeconds, parseEvents } from './meeting-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

describe.each(BACKENDS)('calendar on %s', (backend) => {
  let server: TestServer, ann: SignedIn, bob: SignedIn;
  beforeAll(async () => void ([server, ann, bob] = await startWithPeople(backend, 'Ann', 'Bob')));
  afterAll(() => server.close());

  const eventFields = (overrides: Record<string, string | number> = {}) => {
    const start = nowSeconds() + DAY;
    return {
      title: 'Dentist',
      start_time: start,
      end_time: start + HOUR,
      description: 'Bring card',
      color: '#10B981',
      ...overrides,
    };
  };

  it('creates, lists, moves and deletes personal events, and validates them', async () => {
    const created = await server.post<CalendarEvent>('add-event.php', { token: ann.token, ...eventFields() });
    expect(created.httpStatus).toBe(200);
    expect(created.body.data).toMatchObject({
      title: 'Dentist',
      description: 'Bring card',
      color: '#10b981',
      is_all_day: false,
    });
    const id = created.body.data?.id ?? 0;
    const allDay = await server.post<CalendarEvent>('add-event.php', {
      token: ann.token,
      ...eventFields({ title: 'Holiday', is_all_day: 1 }),
    });
    expect(allDay.body.data?.is_all_day).toBe(true);
    expect(allDay.body.data?.color).toBe('#10b981');
    const plain = await server.post<CalendarEvent>('add-event.php', {
      token: ann.token,
      title: 'Plain',
      start_time: nowSeconds(),
      end_time: nowSeconds(),
    });
    expect(plain.body.data).toMatchObject({ color: '#4f46e5', description: '', is_all_day: false });

    const start = nowSeconds() + 2 * DAY;
    const moved = await server.post<CalendarEvent>('edit-event.php', {
      token: ann.token,
      id,
      title: 'Dentist',
      start_time: start,
      end_time: start + 2 * HOUR,
    });
    expect(moved.body.data).toMatchObject({ start_time: start, end_time: start + 2 * HOUR, description: 'Bring card' });

    const listed = await server.post<{ data: CalendarEvent[] }>('get-events.php', { token: ann.token });
    expect(listed.body.data?.data.map((event) => event.title)).toEqual(['Plain', 'Holiday', 'Dentist']);
    const ranged = await server.post<{ data: CalendarEvent[] }>('get-events.php', {
      token: ann.token,
      start_time: start,
      end_time: start + DAY,
    });
    expect(ranged.body.data?.data.map((event) => event.id)).toEqual([id]);

    const invalid: [Record<string, string | number>, RegExp][] = [
      [eventFields({ end_time: nowSeconds() }), /end of the event cannot be earlier/],
      [eventFields({ title: '' }), /title/],
      [eventFields({ title: 'x'.repeat(201) }), /title/],
      [eventFields({ color: 'red' }), /color/],
      [eventFields({ color: '#12345g' }), /color/],
      [eventFields({ is_all_day: 'maybe' }), /is_all_day/],
      [eventFields({ start_time: -5 }), /start_time/],
    ];
    for (const [fields, pattern] of invalid) {
      const answer = await server.post('add-event.php', { token: ann.token, ...fields });
      expect(answer.httpStatus).toBe(400);
      expect(answer.body.message).toMatch(pattern);
    }

    // Bob cannot see, move or delete Ann's event.
    const bobs = await server.post<{ data: CalendarEvent[] }>('get-events.php', { token: bob.token });
    expect(bobs.body.data?.data).toEqual([]);
    const stolen = await server.post('edit-event.php', { token: bob.token, id, ...eventFields({ title: 'Mine' }) });
    expect(stolen.httpStatus).toBe(404);
    expect((await server.post('delete-event.php', { token: bob.token, id })).httpStatus).toBe(404);

    expect((await server.post('delete-event.php', { token: ann.token, id })).body.message).toBe(
      'The event has been deleted.',
    );
    expect((await server.post('delete-event.php', { token: ann.token, id })).httpStatus).toBe(404);
    expect((await server.post('add-event.php', eventFields())).httpStatus).toBe(401);
  });

  it('returns meeting occurrences and events of a range together', async () => {
    const carol = await server.signUp({ username: 'Carol' });
    const start = nowSeconds() + HOUR;
    const weekly = await addMeeting(server, carol, {
      start_time: start,
      end_time: start + HOUR,
      repeat: 7,
      invitees: bob.email,
    });
    await server.post('add-event.php', {
      token: carol.token,
      ...eventFields({ start_time: start + DAY, end_time: start + DAY + HOUR }),
    });
    const range = { start_time: start - HOUR, end_time: start + 30 * DAY };
    const answer = await server.post<CalendarData>('get-calendar.php', { token: carol.token, ...range });
    expect(answer.httpStatus).toBe(200);
    expect(answer.body.data?.events).toHaveLength(1);
    const occurrences = answer.body.data?.meetings.filter((item) => item.id === weekly.id) ?? [];
    expect(occurrences.map((item) => item.occurrence_start)).toEqual(
      [0, 1, 2, 3, 4].map((week) => start + week * 7 * DAY),
    );
    const forBob = await server.post<CalendarData>('get-calendar.php', { token: bob.token, ...range });
    expect(forBob.body.data?.meetings.filter((item) => item.id === weekly.id)).toHaveLength(5);
    expect(forBob.body.data?.events).toEqual([]);

    const tooLong = await server.post('get-calendar.php', {
      token: carol.token,
      start_time: start,
      end_time: start + 401 * DAY,
    });
    expect(tooLong.httpStatus).toBe(400);
    expect(tooLong.body.message).toBe('Ask for at most 400 days at a time.');
    const backwards = await server.post('get-calendar.php', { token: carol.token, start_time: start, end_time: start });
    expect(backwards.httpStatus).toBe(400);
  });

  it('downloads a meeting as ICS that a real parser reads back with its repeat rule and cancellations', async () => {
    const dave = await server.signUp({ username: 'Dave' });
    const start = nowSeconds() + DAY;
    const meeting = await addMeeting(server, dave, {
      name: 'Berlin weekly',
      description: 'Agenda: "all", things; here',
      start_time: start,
      end_time: start + HOUR,
      repeat: 7,
      time_zone: 'Europe/Berlin',
      is_private: 1,
      is_password: 1,
      password: 'pa ss',
    });
    const cancelled = start + 14 * DAY;
    await server.post('cancel-meeting.php', { token: dave.token, id: meeting.id, occurrence_start: cancelled });
    const answer = await server.post<{ filename: string; content: string }>('get-meeting-ics.php', {
      token: dave.token,
      id: meeting.id,
    });
    expect(answer.body.data?.filename).toBe(`${meeting.slug}.ics`);
    const { events } = parseEvents(answer.body.data?.content ?? '');
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.summary).toBe('Berlin weekly');
    expect(String(event?.description)).toContain('Agenda: "all", things; here');
    expect(String(event?.location)).toContain(`/room/${meeting.slug}?password=pa%20ss`);
    expect(event?.start.getTime()).toBe(start * 1000);
    expect(event?.end?.getTime()).toBe((start + HOUR) * 1000);
    expect(event?.rrule?.options.interval).toBe(1);
    const expanded = (event?.rrule?.between(new Date(start * 1000 - 1), new Date((start + 29 * DAY) * 1000)) ?? []).map(
      (date) => date.getTime() / 1000,
    );
    // Europe/Berlin wall clock: the offset may change once in four weeks, so compare local times.
    expect(expanded).toHaveLength(5);
    const excluded = Object.values(event?.exdate ?? {}).map((date) => (date as Date).getTime() / 1000);
    expect(excluded).toContain(cancelled);

    const list = await server.post<CalendarData>('get-calendar.php', {
      token: dave.token,
      start_time: start - 1,
      end_time: start + 29 * DAY,
    });
    expect(list.body.data?.meetings.map((item) => item.occurrence_start)).not.toContain(cancelled);
    expect(list.body.data?.meetings).toHaveLength(4);
  });

  it('serves a private ICS feed at an unguessable address that can be reset', async () => {
    const erin = await server.signUp({ username: 'Erin' });
    const meeting = await addMeeting(server, erin, { name: 'Feed meeting', repeat: 1 });
    await server.post('add-event.php', { token: erin.token, ...eventFields({ title: 'Feed event' }) });
    const allDayStart = nowSeconds() + 3 * DAY;
    await server.post('add-event.php', {
      token: erin.token,
      ...eventFields({ title: 'Day off', is_all_day: 'true', start_time: allDayStart, end_time: allDayStart + DAY }),
    });
    const first = await server.post<{ url: string }>('get-calendar-feed.php', { token: erin.token });
    const url = first.body.data?.url ?? '';
    expect(url).toMatch(/\/api\/calendar-feed\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await server.post<{ url: string }>('get-calendar-feed.php', { token: erin.token })).body.data?.url).toBe(
      url,
    );
    const path = new URL(url).pathname;
    const response = await fetch(`${server.baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/calendar/);
    const { events } = parseEvents(await response.text());
    expect(events.map((event) => event.summary).sort()).toEqual(['Day off', 'Feed event', 'Feed meeting']);
    expect(events.find((event) => event.summary === 'Feed meeting')?.rrule?.toString()).toContain('FREQ=DAILY');
    expect(events.find((event) => event.summary === 'Day off')?.datetype).toBe('date');
    expect(meeting.id).toBeGreaterThan(0);

    const reset = await server.post<{ url: string }>('reset-calendar-feed.php', { token: erin.token });
    expect(reset.body.data?.url).not.toBe(url);
    expect((await fetch(`${server.baseUrl}${path}`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}${new URL(reset.body.data?.url ?? '').pathname}`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/calendar-feed/guess.ics`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/api/calendar-feed/${'a'.repeat(43)}.ics`)).status).toBe(404);
  });
});
