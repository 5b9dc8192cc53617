import { contactMessages, eq } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './test-database.js';
import { startWithPeople, uniqueEmail, type SignedIn, type TestServer } from './test-server.js';

describe.each(BACKENDS)('contact us on %s', (backend) => {
  let server: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    // Real limits: 5 messages an hour per IP address, 3 per e-mail address.
    [server, admin] = await startWithPeople({ backend, env: { RATE_LIMIT_MULTIPLIER: '1' } }, 'Admin');
  });
  afterAll(() => server.close());

  const stored = (email: string) =>
    server.database.handle.db.select().from(contactMessages).where(eq(contactMessages.email, email));

  it('answers a bot that fills the honeypot with success, and keeps nothing', async () => {
    const email = uniqueEmail('bot');
    const before = server.mail.messages.length;
    const answer = await server.post('contact-us.php', {
      name: 'Bot',
      email,
      subject: 'Cheap pills',
      message: 'Buy now, buy now, buy now',
      website: 'http://spam.example',
    });
    expect(answer.httpStatus).toBe(200);
    expect(answer.body.status).toBe('success');
    expect(await stored(email)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.mail.messages.slice(before).filter((m) => m.to.includes(email))).toEqual([]);
  });

  it('stores a message, notifies administrators in the app and by mail, and confirms to the sender', async () => {
    const email = uniqueEmail('visitor');
    const answer = await server.post('contact-us.php', {
      name: 'Vera <script>',
      email,
      subject: 'Pricing question',
      message: 'How many people fit in one meeting?',
      website: '',
    });
    expect(answer.httpStatus).toBe(200);
    expect(await stored(email)).toMatchObject([{ name: 'Vera <script>', subject: 'Pricing question', status: 'new' }]);
    const notes = await server.post<{ data: { text: string }[] }>('get-user-notification.php', { token: admin.token });
    const text = notes.body.data?.data[0]?.text ?? '';
    expect(text).toContain('Vera &#60;script&#62;');
    expect(text).not.toContain('<script>');
    const adminMail = await server.mail.waitFor(admin.email, (m) => m.subject.includes('Pricing question'));
    expect(adminMail.text).toContain('How many people fit in one meeting?');
    const confirmation = await server.mail.waitFor(email);
    expect(confirmation.subject).toContain('Pricing question');
    const invalid = await server.post('contact-us.php', { name: 'x', email: 'nope', subject: 's', message: 'short' });
    expect(invalid.httpStatus).toBe(400);
  });

  it('limits messages per e-mail address and per IP address', async () => {
    const email = uniqueEmail('chatty');
    const send = (from: string) =>
      server.post('contact-us.php', {
        name: 'Chatty',
        email: from,
        subject: 'Hello',
        message: 'Just saying hello again.',
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(email)).httpStatus);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await stored(email)).toHaveLength(3);
    const other = uniqueEmail('other');
    const blocked = await send(other);
    expect(blocked.httpStatus).toBe(429);
    expect(blocked.body.message).toMatch(/seconds/);
    expect(await stored(other)).toEqual([]);
  });
});
