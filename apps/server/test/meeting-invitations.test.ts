import { contacts, eq, users } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, addMeeting, calendarAttachment, nowSeconds, parseEvents, upcoming } from './meeting-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, uniqueEmail, type SignedIn, type TestServer } from './test-server.js';

type Listed = { data: { id: number; text: string }[] };

describe.each(BACKENDS)('meeting invitations on %s', (backend) => {
  let server: TestServer, ann: SignedIn, bob: SignedIn;
  beforeAll(async () => void ([server, ann, bob] = await startWithPeople(backend, 'Ann <b>', 'Bob')));
  afterAll(() => server.close());

  const notificationsOf = async (who: SignedIn) =>
    (await server.post<Listed>('get-user-notification.php', { token: who.token })).body.data?.data ?? [];

  it('mails invitees the link and a calendar file, and notifies invitees who have an account', async () => {
    const db = server.database.handle.db;
    const outsider = uniqueEmail('outsider');
    const contactEmail = uniqueEmail('contact');
    const [contact] = await db
      .insert(contacts)
      .values({ ownerId: ann.user.id, name: 'Carla', email: contactEmail.toUpperCase() })
      .returning();
    const start = nowSeconds() + DAY;
    const meeting = await addMeeting(server, ann, {
      name: 'Launch <img src=x onerror=alert(1)>',
      start_time: start,
      end_time: start + HOUR,
      repeat: 7,
      is_private: 1,
      is_password: 1,
      password: 'hunter22',
      invitees: `${bob.email.toUpperCase()}, ${outsider}; ${ann.email}`,
      invitee_contacts: contact?.id ?? 0,
    });
    expect(meeting.invitees.map((invitee) => invitee.email).sort()).toEqual([bob.email, outsider, contactEmail].sort());
    expect(meeting.invitees.find((invitee) => invitee.email === bob.email)?.user_id).toBe(bob.user.id);

    for (const address of [bob.email, outsider, contactEmail]) {
      const mail = await server.mail.waitFor(address, (m) => m.subject.includes('invited you'));
      expect(mail.subject).toBe('Ann <b> invited you to Launch <img src=x onerror=alert(1)>');
      expect(mail.text).toContain(`/room/${meeting.slug}?password=hunter22`);
      expect(mail.text).toContain('Password: hunter22');
      expect(mail.text).toContain('Repeats: Every week');
      const ics = calendarAttachment(mail);
      expect(ics).toBeDefined();
      const { events, method } = parseEvents(ics ?? '');
      expect(method).toBe('REQUEST');
      expect(events[0]?.summary).toBe('Launch <img src=x onerror=alert(1)>');
      expect(events[0]?.start.getTime()).toBe(start * 1000);
      expect(events[0]?.rrule?.toString()).toContain('FREQ=WEEKLY');
    }
    expect(server.mail.messages.some((m) => m.to.includes(ann.email) && m.subject.includes('invited you'))).toBe(false);

    const [notification] = await notificationsOf(bob);
    expect(notification?.text).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(notification?.text).toContain('<b>Ann &#60;b&#62;</b>');
    expect(notification?.text).not.toContain('<img');
    expect((await upcoming(server, bob)).data.some((item) => item.id === meeting.id)).toBe(true);
  });

  it('refuses contacts that are not the host’s own or have no address', async () => {
    const db = server.database.handle.db;
    const [bobsContact] = await db
      .insert(contacts)
      .values({ ownerId: bob.user.id, name: 'Private', email: uniqueEmail('p') })
      .returning();
    const [noEmail] = await db.insert(contacts).values({ ownerId: ann.user.id, name: 'Phone only' }).returning();
    const start = nowSeconds() + DAY;
    const base = { token: ann.token, name: 'x', start_time: start, end_time: start + HOUR, slug: `c-${Date.now()}` };
    const foreign = await server.post('add-meeting.php', { ...base, invitee_contacts: bobsContact?.id ?? 0 });
    expect(foreign.httpStatus).toBe(400);
    expect(foreign.body.message).toBe('One of the chosen contacts does not exist.');
    const empty = await server.post('add-meeting.php', { ...base, invitee_contacts: noEmail?.id ?? 0 });
    expect(empty.body.message).toBe('Phone only has no e-mail address and cannot be invited.');
    const many = Array.from({ length: 101 }, (_, index) => `p${index}@example.com`).join(',');
    expect((await server.post('add-meeting.php', { ...base, invitees: many })).httpStatus).toBe(400);
  });

  it('tells invitees about changes, removals and cancellations, in their own language', async () => {
    const db = server.database.handle.db;
    await db.update(users).set({ language: 'de' }).where(eq(users.id, bob.user.id));
    const stay = uniqueEmail('stay');
    const leave = uniqueEmail('leave');
    const start = nowSeconds() + DAY;
    const meeting = await addMeeting(server, ann, {
      name: 'Changing',
      start_time: start,
      end_time: start + HOUR,
      invitees: `${stay},${leave}`,
    });
    await server.mail.waitFor(leave, (m) => m.subject.includes('Changing'));
    const edit = await server.post('edit-meeting.php', {
      token: ann.token,
      id: meeting.id,
      name: 'Changing',
      slug: meeting.slug,
      start_time: start + HOUR,
      end_time: start + 2 * HOUR,
      invitees: `${stay},${bob.email}`,
    });
    expect(edit.httpStatus).toBe(200);
    const update = await server.mail.waitFor(stay, (m) => m.subject === 'Updated: Changing');
    expect(parseEvents(calendarAttachment(update) ?? '').events[0]?.start.getTime()).toBe((start + HOUR) * 1000);
    const removed = await server.mail.waitFor(leave, (m) => m.subject === 'Cancelled: Changing');
    expect(parseEvents(calendarAttachment(removed) ?? '').method).toBe('CANCEL');
    const german = await server.mail.waitFor(bob.email, (m) => m.subject.includes('Changing'));
    expect(german.subject).not.toContain('invited you');
    expect(german.text).not.toContain('When:');

    expect((await server.post('cancel-meeting.php', { token: ann.token, id: meeting.id })).httpStatus).toBe(200);
    const cancelled = await server.mail.waitFor(stay, (m) => m.subject === 'Cancelled: Changing');
    const { events, method } = parseEvents(calendarAttachment(cancelled) ?? '');
    expect(method).toBe('CANCEL');
    expect(events[0]?.status).toBe('CANCELLED');
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await notificationsOf(bob)).length < 3)
      await new Promise((r) => setTimeout(r, 100));
    expect((await notificationsOf(bob)).length).toBeGreaterThanOrEqual(3);
  });
});
