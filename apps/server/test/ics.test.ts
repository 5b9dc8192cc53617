import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { eq, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, addMeeting, calendarAttachment, meetingFields, nowSeconds } from './meeting-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, uniqueEmail, type SignedIn, type TestServer } from './test-server.js';

const CHECKER = resolve(import.meta.dirname, '../../../scripts/ics-strict-check.py');
// Debian's python3 with python3-icalendar (scripts/system-packages.sh), not whatever python3 is on PATH.
const PYTHON = '/usr/bin/python3';

/** Runs python-icalendar over each file; answers the problems found, by name. */
async function strictProblems(files: Record<string, string>): Promise<Record<string, string[]>> {
  const dir = await mkdtemp(join(tmpdir(), 'meetcast-ics-'));
  try {
    const paths = await Promise.all(
      Object.entries(files).map(async ([name, content], index) => {
        const path = join(dir, `${index}.ics`);
        await writeFile(path, content);
        return [path, name] as const;
      }),
    );
    const names = new Map(paths);
    const output = await promisify(execFile)(PYTHON, [CHECKER, ...names.keys()]).then(
      (result) => result.stdout,
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    const problems: Record<string, string[]> = {};
    for (const line of output.trim().split('\n').filter(Boolean)) {
      const report = JSON.parse(line) as { file: string; problems: string[] };
      problems[names.get(report.file) ?? report.file] = report.problems;
    }
    expect(Object.keys(problems)).toHaveLength(paths.length);
    return problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const unfolded = (ics: string) => ics.replace(/\r\n[ \t]/g, '');
const field = (ics: string, name: string) => new RegExp(`^${name}[;:](.*)$`, 'm').exec(unfolded(ics))?.[1];

describe.each(BACKENDS)('calendar files on %s', (backend) => {
  let server: TestServer, ann: SignedIn;
  beforeAll(async () => void ([server, ann] = await startWithPeople(backend, 'Ann')));
  afterAll(() => server.close());

  const meetingIcs = async (id: number) =>
    (await server.post<{ content: string }>('get-meeting-ics.php', { token: ann.token, id })).body.data?.content ?? '';

  it('passes a strict parser: every kind of meeting, the feed, invitations and cancellations', async () => {
    const invitee = uniqueEmail('invitee');
    const start = nowSeconds() + DAY;
    const single = await addMeeting(server, ann, { name: 'Single', invitees: invitee });
    const weekly = await addMeeting(server, ann, {
      name: 'Weekly; with, "marks"',
      description: 'Line one\nLine two, with a long tail that certainly needs folding past seventy-five octets',
      start_time: start,
      end_time: start + HOUR,
      repeat: 7,
      time_zone: 'Europe/Berlin',
      is_private: 1,
      is_password: 1,
      password: 'pa ss',
      invitees: invitee,
    });
    const daily = await addMeeting(server, ann, { name: 'Daily, nothing cancelled', repeat: 1 });
    const doomed = await addMeeting(server, ann, { name: 'Doomed', invitees: invitee });
    await server.post('cancel-meeting.php', { token: ann.token, id: weekly.id, occurrence_start: start + 7 * DAY });
    await server.post('cancel-meeting.php', { token: ann.token, id: doomed.id });
    await server.post('add-event.php', {
      token: ann.token,
      title: 'Day off',
      is_all_day: 1,
      start_time: start,
      end_time: start + DAY,
    });
    await server.post('add-event.php', {
      token: ann.token,
      title: 'Dentist',
      start_time: start,
      end_time: start + HOUR,
    });

    const feedUrl = (await server.post<{ url: string }>('get-calendar-feed.php', { token: ann.token })).body.data?.url;
    const feed = await (await fetch(`${server.baseUrl}${new URL(feedUrl ?? '').pathname}`)).text();
    const invitation = await server.mail.waitFor(invitee, (mail) => mail.subject.includes('Weekly'));
    const cancellation = await server.mail.waitFor(invitee, (mail) => /cancel/i.test(mail.subject));
    const files = {
      single: await meetingIcs(single.id),
      weekly: await meetingIcs(weekly.id),
      daily: await meetingIcs(daily.id),
      cancelled: await meetingIcs(doomed.id),
      feed,
      invitation: calendarAttachment(invitation) ?? '',
      cancellation: calendarAttachment(cancellation) ?? '',
    };
    for (const [name, content] of Object.entries(files)) expect(content, name).toContain('BEGIN:VCALENDAR');
    const problems = await strictProblems(files);
    expect(problems).toEqual(Object.fromEntries(Object.keys(files).map((name) => [name, []])));
    expect(files.daily).not.toMatch(/^EXDATE/m);
    expect(field(files.weekly, 'EXDATE')).toBeDefined();
  });

  it('refuses what it should: the strict check itself catches an empty EXDATE', async () => {
    const good = await meetingIcs((await addMeeting(server, ann, { name: 'Plain' })).id);
    const broken = good.replace('END:VEVENT', 'EXDATE:\r\nEND:VEVENT');
    const problems = await strictProblems({ good, broken });
    expect(problems.good).toEqual([]);
    expect(problems.broken?.length).toBeGreaterThan(0);
  });

  it('raises SEQUENCE only when the time or the rule changes', async () => {
    const meeting = await addMeeting(server, ann, { name: 'Sequenced', repeat: 7 });
    expect(field(await meetingIcs(meeting.id), 'SEQUENCE')).toBe('0');

    const edit = (overrides: Record<string, string | number>) =>
      server.post('edit-meeting.php', {
        token: ann.token,
        ...meetingFields({
          id: meeting.id,
          name: meeting.name,
          slug: meeting.url_slug,
          start_time: meeting.start_time,
          end_time: meeting.end_time,
          repeat: 7,
          ...overrides,
        }),
      });
    expect((await edit({ name: 'Renamed', description: 'New agenda' })).httpStatus).toBe(200);
    // What the room writes when people join: state, start and the row's update time, minutes later.
    await server.database.handle.db
      .update(meetings)
      .set({ state: 'live', startedAt: new Date(), updatedAt: new Date(Date.now() + 703_000) })
      .where(eq(meetings.id, meeting.id));
    expect(field(await meetingIcs(meeting.id), 'SEQUENCE')).toBe('0');

    expect((await edit({ start_time: meeting.start_time + HOUR, end_time: meeting.end_time + HOUR })).httpStatus).toBe(
      200,
    );
    expect(field(await meetingIcs(meeting.id), 'SEQUENCE')).toBe('1');
    await edit({ start_time: meeting.start_time + HOUR, end_time: meeting.end_time + HOUR, repeat: 1 });
    expect(field(await meetingIcs(meeting.id), 'SEQUENCE')).toBe('2');
    await server.post('cancel-meeting.php', {
      token: ann.token,
      id: meeting.id,
      occurrence_start: meeting.start_time + HOUR + DAY,
    });
    expect(field(await meetingIcs(meeting.id), 'SEQUENCE')).toBe('3');
  });

  it('reminds before the meeting and describes it: link, password note and host', async () => {
    const meeting = await addMeeting(server, ann, {
      name: 'Described',
      description: 'Agenda',
      is_private: 1,
      is_password: 1,
      password: 'hunter22',
    });
    const ics = unfolded(await meetingIcs(meeting.id));
    expect(ics).toMatch(/BEGIN:VALARM\r\nACTION:DISPLAY\r\n(.*\r\n)*TRIGGER:-PT10M\r\n(.*\r\n)*END:VALARM/);
    const description = (field(ics, 'DESCRIPTION') ?? '').replace(/\\n/g, '\n').replace(/\\([,;\\])/g, '$1');
    expect(description).toContain('Agenda');
    expect(description).toContain(`/room/${meeting.url_slug}?password=hunter22`);
    expect(description).toContain('Password: hunter22');
    expect(description).toContain('Host: Ann');
  });
});
