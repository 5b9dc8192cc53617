import { eq, meetingInvitees, meetings, users } from '@meetcast/db';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts/account-service.js';
import { postFile } from './people-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, uniqueEmail, type SignedIn, type TestServer } from './test-server.js';

type ProfileDto = {
  id: number;
  username: string;
  email: string;
  avatar: string | null;
  language: string;
  time_zone: string;
  has_password: boolean;
  pending_email: string | null;
  default_meeting_password: boolean;
  reminder_minutes: number;
};
type SessionDto = { id: number; user_agent: string | null; is_current: boolean; last_used_at: number };

describe.each(BACKENDS)('profile on %s', (backend) => {
  let server: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    [server, admin] = await startWithPeople({ backend, env: { LOG_LEVEL: 'error' } }, 'Admin');
  });
  afterAll(() => server.close());

  const profile = async (who: SignedIn) =>
    (await server.post<{ data: ProfileDto }>('get-profile.php', { token: who.token })).body.data?.data as ProfileDto;

  it('updates username, language, time zone and meeting defaults, and refuses bad values', async () => {
    const ann = await server.signUp({ username: 'Ann' });
    const saved = await server.post<{ data: ProfileDto }>('update-profile.php', {
      token: ann.token,
      username: 'Ann B.',
      language: 'fr',
      time_zone: 'Europe/Paris',
      default_meeting_password: '1',
      reminder_minutes: 30,
    });
    expect(saved.httpStatus).toBe(200);
    expect(saved.body.data?.data).toMatchObject({
      username: 'Ann B.',
      language: 'fr',
      time_zone: 'Europe/Paris',
      default_meeting_password: true,
      reminder_minutes: 30,
      has_password: true,
    });
    const verified = await server.post<{ data: { username: string } }>('tokenverify.php', { token: ann.token });
    expect(verified.body.data?.data.username).toBe('Ann B.');
    for (const bad of [
      { time_zone: 'Mars/Olympus' },
      { language: 'xx' },
      { reminder_minutes: -1 },
      { reminder_minutes: 99999 },
      { username: 'a' },
      { email: 'nope' },
    ]) {
      expect((await server.post('update-profile.php', { token: ann.token, ...bad })).httpStatus).toBe(400);
    }
    expect((await profile(ann)).time_zone).toBe('Europe/Paris');
  });

  it('changes the e-mail address only after the code mailed to the new address comes back', async () => {
    const ben = await server.signUp({ username: 'Ben' });
    const newEmail = uniqueEmail('ben-new');
    const asked = await server.post<{ data: ProfileDto }>('update-profile.php', { token: ben.token, email: newEmail });
    expect(asked.httpStatus).toBe(200);
    expect(asked.body.message).toContain(newEmail);
    expect(asked.body.data?.data).toMatchObject({ email: ben.email, pending_email: newEmail });
    const code = await server.mail.codeFor(newEmail);
    expect(code).toMatch(/^\d{6}$/);
    // Still the old address until confirmed.
    expect((await server.post('login.php', { email: newEmail, password: ben.password })).httpStatus).toBe(401);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await server.post('confirm-email-change.php', { token: ben.token, code: wrong })).httpStatus).toBe(400);
    const confirmed = await server.post<{ data: ProfileDto }>('confirm-email-change.php', { token: ben.token, code });
    expect(confirmed.httpStatus).toBe(200);
    expect(confirmed.body.data?.data).toMatchObject({ email: newEmail, pending_email: null });
    expect((await server.post('login.php', { email: newEmail, password: ben.password })).httpStatus).toBe(200);
    const notice = await server.mail.waitFor(ben.email, (m) => m.subject.includes('changed'));
    expect(notice.text).toContain(newEmail);
    expect((await server.post('confirm-email-change.php', { token: ben.token, code })).httpStatus).toBe(400);

    // An address that already has an account gets a notice, never a code, and nothing changes.
    const cat = await server.signUp({ username: 'Cat' });
    const before = server.mail.messages.length;
    const taken = await server.post('update-profile.php', { token: cat.token, email: newEmail });
    expect(taken.httpStatus).toBe(200);
    const mail = await server.mail.waitFor(newEmail, (m) => server.mail.messages.indexOf(m) >= before);
    expect(mail.subject).not.toMatch(/\d{6}/);
    expect((await profile(cat)).email).toBe(cat.email);
  });

  it('stores a real avatar re-encoded without EXIF and refuses a text file named .png', async () => {
    const dan = await server.signUp({ username: 'Dan' });
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#cc3366' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Artist: 'Dan', Copyright: 'GPS somewhere' } } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const saved = await postFile<{ data: ProfileDto }>(
      server,
      'upload-avatar.php',
      { token: dan.token },
      {
        filename: 'me.jpg',
        type: 'image/jpeg',
        bytes: photo,
      },
    );
    expect(saved.httpStatus).toBe(200);
    const avatar = saved.body.data?.data.avatar ?? '';
    expect(avatar).toMatch(/^uploads\/avatars\/[a-f0-9]{32}\.webp$/);
    const image = Buffer.from(await (await fetch(`${server.baseUrl}/${avatar}`)).arrayBuffer());
    const meta = await sharp(image).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();

    const fake = await postFile(
      server,
      'upload-avatar.php',
      { token: dan.token },
      {
        filename: 'fake.png',
        type: 'image/png',
        bytes: 'just some text, not a picture',
      },
    );
    expect(fake.httpStatus).toBe(400);
    expect(fake.body.message).toMatch(/not a JPEG, PNG or WebP/);
    const huge = await postFile(
      server,
      'upload-avatar.php',
      { token: dan.token },
      {
        filename: 'huge.png',
        type: 'image/png',
        bytes: new Uint8Array(5 * 1024 * 1024 + 10),
      },
    );
    expect(huge.httpStatus).toBe(413);
    expect((await profile(dan)).avatar).toBe(avatar);

    const removed = await server.post<{ data: ProfileDto }>('remove-avatar.php', { token: dan.token });
    expect(removed.body.data?.data.avatar).toBeNull();
    expect((await fetch(`${server.baseUrl}/${avatar}`)).status).toBe(404);
  });

  it('changes the password and signs out every other session, and lets external accounts set one', async () => {
    const eve = await server.signUp({ username: 'Eve' });
    const phone = await server.post<{ token: string }>(
      'login.php',
      { email: eve.email, password: eve.password },
      {
        'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
      },
    );
    const phoneToken = phone.body.data?.token as string;
    const sessions = await server.post<{ data: SessionDto[] }>('get-sessions.php', { token: eve.token });
    expect(sessions.body.data?.data).toHaveLength(2);
    expect(sessions.body.data?.data.filter((s) => s.is_current)).toHaveLength(1);
    expect(sessions.body.data?.data.some((s) => s.user_agent?.includes('iPhone'))).toBe(true);

    const wrong = await server.post('change-password.php', {
      token: eve.token,
      current_password: 'nope nope',
      password: 'brand new secret',
    });
    expect(wrong.httpStatus).toBe(400);
    expect((await server.post('tokenverify.php', { token: phoneToken })).httpStatus).toBe(200);
    const changed = await server.post('change-password.php', {
      token: eve.token,
      current_password: eve.password,
      password: 'brand new secret',
    });
    expect(changed.httpStatus).toBe(200);
    expect((await server.post('tokenverify.php', { token: phoneToken })).httpStatus).toBe(401);
    expect((await server.post('tokenverify.php', { token: eve.token })).httpStatus).toBe(200);
    expect((await server.post('login.php', { email: eve.email, password: 'brand new secret' })).httpStatus).toBe(200);

    const external = await createAccount(server.built.context, 'Ext', uniqueEmail('ext'), null, 'en', {
      emailVerifiedAt: new Date(),
    });
    const extToken = await server.built.context.sessions.create(external.id, {});
    const extProfile = await server.post<{ data: ProfileDto }>('get-profile.php', { token: extToken });
    expect(extProfile.body.data?.data.has_password).toBe(false);
    expect(
      (await server.post('change-password.php', { token: extToken, password: 'first password!' })).httpStatus,
    ).toBe(200);
    expect((await server.post('login.php', { email: external.email, password: 'first password!' })).httpStatus).toBe(
      200,
    );
  });

  it('lists and revokes sessions, but never another user’s', async () => {
    const fay = await server.signUp({ username: 'Fay' });
    const gus = await server.signUp({ username: 'Gus' });
    const second = await server.post<{ token: string }>('login.php', { email: fay.email, password: fay.password });
    const listed = await server.post<{ data: SessionDto[] }>('get-sessions.php', { token: fay.token });
    const other = listed.body.data?.data.find((s) => !s.is_current) as SessionDto;
    expect((await server.post('revoke-session.php', { token: gus.token, id: other.id })).httpStatus).toBe(404);
    expect((await server.post('tokenverify.php', { token: second.body.data?.token })).httpStatus).toBe(200);
    const gusSessions = await server.post<{ data: SessionDto[] }>('get-sessions.php', { token: gus.token });
    expect(gusSessions.body.data?.data.map((s) => s.id)).not.toContain(other.id);
    expect((await server.post('revoke-session.php', { token: fay.token, id: other.id })).httpStatus).toBe(200);
    expect((await server.post('tokenverify.php', { token: second.body.data?.token })).httpStatus).toBe(401);
    expect((await server.post('revoke-session.php', { token: fay.token, id: other.id })).httpStatus).toBe(404);
  });

  it('exports my data as JSON without secrets', async () => {
    const hal = await server.signUp({ username: 'Hal' });
    await server.post('add-contact.php', { token: hal.token, name: 'Friend', email: 'friend@example.com' });
    const exported = await server.post<{ filename: string; data: Record<string, unknown> }>('export-my-data.php', {
      token: hal.token,
    });
    expect(exported.body.data?.filename).toMatch(/\.json$/);
    const data = exported.body.data?.data as { account: { email: string }; contacts: { name: string }[] };
    expect(data.account.email).toBe(hal.email);
    expect(data.contacts.map((c) => c.name)).toEqual(['Friend']);
    const text = JSON.stringify(exported.body.data);
    expect(text).not.toMatch(/password_hash|passwordHash|token_hash|\$argon2/);
  });

  it('deletes an account after the password: its meetings are cancelled and invitees told', async () => {
    const ivy = await server.signUp({ username: 'Ivy' });
    const jon = await server.signUp({ username: 'Jon' });
    const db = server.database.handle.db;
    const [meeting] = await db
      .insert(meetings)
      .values({
        hostId: ivy.user.id,
        name: 'Ivy sync',
        slug: `ivy-sync-${Date.now()}`,
        isSchedule: 1,
        startTime: new Date(Date.now() + 3600_000),
        endTime: new Date(Date.now() + 7200_000),
      })
      .returning();
    const outsider = uniqueEmail('outsider');
    await db.insert(meetingInvitees).values([
      { meetingId: meeting?.id ?? 0, email: jon.email, userId: jon.user.id },
      { meetingId: meeting?.id ?? 0, email: outsider },
    ]);
    await server.post('add-contact.php', { token: ivy.token, name: 'Someone', email: 'someone@example.com' });

    expect((await server.post('delete-account.php', { token: ivy.token, password: 'wrong password' })).httpStatus).toBe(
      400,
    );
    expect((await server.post('delete-account.php', { token: ivy.token })).httpStatus).toBe(400);
    const deleted = await server.post('delete-account.php', { token: ivy.token, password: ivy.password });
    expect(deleted.httpStatus).toBe(200);

    expect(await db.select().from(users).where(eq(users.id, ivy.user.id))).toEqual([]);
    expect(await db.select().from(meetings).where(eq(meetings.hostId, ivy.user.id))).toEqual([]);
    expect((await server.post('tokenverify.php', { token: ivy.token })).httpStatus).toBe(401);
    expect((await server.post('login.php', { email: ivy.email, password: ivy.password })).httpStatus).toBe(401);
    const notes = await server.post<{ data: { text: string }[] }>('get-user-notification.php', { token: jon.token });
    expect(notes.body.data?.data[0]?.text).toContain('Ivy sync');
    const mail = await server.mail.waitFor(outsider, (m) => m.subject.includes('Ivy sync'));
    expect(mail.text).toContain('cancelled');

    // The only administrator cannot leave the installation without one.
    const last = await server.post('delete-account.php', { token: admin.token, password: admin.password });
    expect(last.httpStatus).toBe(409);
  });
});
