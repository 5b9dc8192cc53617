import { ROLE } from '@meetcast/contracts';
import { auditLog, channels, eq, sessions, users } from '@meetcast/db';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditFor,
  rawPost,
  seedCalendarEvent,
  seedChannel,
  seedContactMessage,
  seedMeeting,
  snapshot,
} from './admin-fixtures.js';
import { BACKENDS } from './test-database.js';
import { startTestServer, startWithPeople, type Fields, type SignedIn, type TestServer } from './test-server.js';

describe.each(BACKENDS)('admin access and protection on %s', (backend) => {
  let server: TestServer;
  let admin: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  /** Every admin call with fields that would change something if it were allowed. */
  let calls: [string, Fields][];

  beforeAll(async () => {
    [server, admin, alice, bob] = await startWithPeople(backend, 'Root Admin', 'Alice', 'Bob');
    const live = await seedMeeting(server, bob.user.id, { state: 'live', present: 2, startOffset: -600 });
    const single = await seedMeeting(server, bob.user.id);
    const channel = await seedChannel(server, bob.user.id);
    const hidden = await seedChannel(server, alice.user.id, 'Hidden one');
    await server.built.context.db.update(channels).set({ hiddenAt: new Date() }).where(eq(channels.id, hidden.id));
    const message = await seedContactMessage(server);
    const event = await seedCalendarEvent(server, bob.user.id);
    const now = Math.floor(Date.now() / 1000);
    calls = [
      ['admin-dashboard.php', {}],
      ['admin-get-users.php', { search: 'bob' }],
      ['admin-get-user.php', { id: bob.user.id }],
      ['admin-update-user-role.php', { id: bob.user.id, role_id: ROLE.admin }],
      ['admin-disable-users.php', { ids: `${bob.user.id}` }],
      ['admin-enable-users.php', { ids: `${bob.user.id}` }],
      ['admin-send-password-reset.php', { id: bob.user.id }],
      ['admin-delete-users.php', { ids: `${bob.user.id},${alice.user.id}` }],
      ['admin-get-meetings.php', {}],
      ['admin-end-meeting.php', { id: live.id }],
      ['admin-delete-meeting.php', { id: single.id }],
      ['admin-get-channels.php', {}],
      ['admin-hide-channel.php', { id: channel.id }],
      ['admin-unhide-channel.php', { id: hidden.id }],
      ['admin-delete-channel.php', { id: channel.id }],
      ['admin-get-contact-messages.php', {}],
      ['admin-update-contact-message.php', { id: message.id, status: 'read' }],
      ['admin-reply-contact-message.php', { id: message.id, message: 'Thanks for asking.' }],
      ['admin-delete-contact-message.php', { id: message.id }],
      ['admin-get-events.php', { start: now - 86_400, end: now + 30 * 86_400 }],
      ['admin-delete-event.php', { kind: 'event', id: event.id }],
      ['admin-get-audit-log.php', {}],
      ['admin-export.php', { table: 'users' }],
    ];
  });
  afterAll(() => server.close());

  it('covers every admin call the server offers', async () => {
    const response = await fetch(`${server.baseUrl}/api/openapi.json`);
    const spec = (await response.json()) as { paths: Record<string, unknown> };
    const offered = Object.keys(spec.paths)
      .filter((path) => path.startsWith('/api/admin-'))
      .map((path) => path.slice('/api/'.length))
      .sort();
    expect(offered).toEqual(calls.map(([name]) => name).sort());
    // Nothing can edit the audit log: the only audit call reads it.
    expect(offered.filter((name) => name.includes('audit'))).toEqual(['admin-get-audit-log.php']);
  });

  it("refuses a regular user's token (403) and a missing token (401), and nothing changes", async () => {
    const before = await snapshot(server);
    const mailBefore = server.mail.messages.length;
    for (const [name, fields] of calls) {
      const anonymous = await server.post(name, fields);
      expect(anonymous.httpStatus, `${name} without a token`).toBe(401);
      expect(anonymous.body.status).toBe('error');
      const regular = await server.post(name, { ...fields, token: alice.token });
      expect(regular.httpStatus, `${name} with a regular token`).toBe(403);
      expect(regular.body).toEqual({ status: 'error', message: 'Only administrators can do this.' });
      const bearer = await server.post(name, fields, { authorization: `Bearer ${alice.token}` });
      expect(bearer.httpStatus, `${name} with a regular bearer token`).toBe(403);
      const forged = await server.post(name, { ...fields, token: 'not-a-real-token' });
      expect(forged.httpStatus, `${name} with a forged token`).toBe(401);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await snapshot(server)).toEqual(before);
    expect(server.mail.messages.length).toBe(mailBefore);
  });

  it('answers every call for an administrator', async () => {
    const reads = calls.filter(([name]) => /get-|dashboard|export/.test(name));
    for (const [name, fields] of reads) {
      const answer = await rawPost(server, name, { ...fields, token: admin.token });
      expect(answer.status, name).toBe(200);
    }
  });

  it('protects the last administrator', async () => {
    const demoteSelf = await server.post('admin-update-user-role.php', {
      token: admin.token,
      id: admin.user.id,
      role_id: 2,
    });
    expect(demoteSelf.httpStatus).toBe(409);
    expect(demoteSelf.body.message).toBe('You cannot remove your own administrator role.');
    const disableSelf = await server.post('admin-disable-users.php', { token: admin.token, ids: admin.user.id });
    expect(disableSelf.httpStatus).toBe(409);
    const deleteSelf = await server.post('admin-delete-users.php', { token: admin.token, ids: admin.user.id });
    expect(deleteSelf.httpStatus).toBe(409);
    expect(deleteSelf.body.message).toMatch(/without an active administrator/);
    const [still] = await server.built.context.db.select().from(users).where(eq(users.id, admin.user.id));
    expect(still).toMatchObject({ roleId: ROLE.admin, disabledAt: null });
    // The refusals wrote nothing to the audit log.
    expect(await auditFor(server, 'user.deleted')).toEqual([]);
    expect(await auditFor(server, 'user.role_changed')).toEqual([]);

    // A disabled administrator does not count: with the only other admin disabled, deleting yourself is refused.
    const carol = await server.signUp({ username: 'Carol' });
    expect(
      (await server.post('admin-update-user-role.php', { token: admin.token, id: carol.user.id, role_id: 1 }))
        .httpStatus,
    ).toBe(200);
    // Her token works on admin calls at once, without signing in again.
    expect((await server.post('admin-get-users.php', { token: carol.token })).httpStatus).toBe(200);
    expect((await server.post('admin-disable-users.php', { token: admin.token, ids: carol.user.id })).httpStatus).toBe(
      200,
    );
    expect((await server.post('admin-delete-users.php', { token: admin.token, ids: admin.user.id })).httpStatus).toBe(
      409,
    );
    expect((await server.post('admin-enable-users.php', { token: admin.token, ids: carol.user.id })).httpStatus).toBe(
      200,
    );

    // Two administrators demoting each other at the same moment: exactly one wins.
    const carolAgain = await server.post<{ token: string }>('login.php', {
      email: carol.email,
      password: carol.password,
    });
    const carolToken = carolAgain.body.data?.token ?? '';
    const [first, second] = await Promise.all([
      server.post('admin-update-user-role.php', { token: admin.token, id: carol.user.id, role_id: 2 }),
      server.post('admin-update-user-role.php', { token: carolToken, id: admin.user.id, role_id: 2 }),
    ]);
    // The loser is refused either as no longer an administrator (403) or by the last-admin rule (409).
    const statuses = [first.httpStatus, second.httpStatus].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = await server.built.context.db.select().from(users).where(eq(users.roleId, ROLE.admin));
    expect(admins).toHaveLength(1);
    // Put the original administrator back in charge for the rest of the file.
    if (admins[0]?.id !== admin.user.id) {
      await server.post('admin-update-user-role.php', { token: carolToken, id: admin.user.id, role_id: 1 });
      await server.post('admin-update-user-role.php', { token: admin.token, id: carol.user.id, role_id: 2 });
    }
    // A demoted administrator loses access at once.
    expect((await server.post('admin-get-users.php', { token: carolToken })).httpStatus).toBe(403);
    expect((await server.post('admin-get-users.php', { token: admin.token })).httpStatus).toBe(200);
  });

  it('a role removed while a token is being checked is not trusted from the cache afterwards', async () => {
    const erin = await server.signUp({ username: 'Erin' });
    const store = server.built.context.sessions;
    await store.forgetUser(erin.user.id);
    // The role change lands while this check reads the database: its answer must not be cached.
    const checking = store.verify(erin.token);
    await store.forgetUser(erin.user.id);
    expect((await checking)?.user.roleId).toBe(ROLE.user);
    await server.built.context.db.update(users).set({ roleId: ROLE.admin }).where(eq(users.id, erin.user.id));
    expect((await store.verify(erin.token))?.user.roleId).toBe(ROLE.admin);
    await server.built.context.db.update(users).set({ roleId: ROLE.user }).where(eq(users.id, erin.user.id));
    await store.forgetUser(erin.user.id);
  });

  it('disabling ends every session at once and refuses sign-in; enabling lets the person back', async () => {
    const dave = await server.signUp({ username: 'Dave' });
    const second = await server.post<{ token: string }>('login.php', { email: dave.email, password: dave.password });
    const secondToken = second.body.data?.token ?? '';
    expect((await server.post('tokenverify.php', { token: dave.token })).httpStatus).toBe(200);

    const disabled = await server.post<{ ids: number[] }>('admin-disable-users.php', {
      token: admin.token,
      ids: `${dave.user.id}`,
    });
    expect(disabled.httpStatus).toBe(200);
    expect(disabled.body.data?.ids).toEqual([dave.user.id]);
    for (const token of [dave.token, secondToken]) {
      const verify = await server.post('tokenverify.php', { token });
      expect(verify.httpStatus).toBe(401);
      expect(verify.body.status).toBe('error');
    }
    const open = await server.built.context.db.select().from(sessions).where(eq(sessions.userId, dave.user.id));
    expect(open.length).toBeGreaterThanOrEqual(2);
    expect(open.every((session) => session.revokedAt !== null)).toBe(true);

    const login = await server.post('login.php', { email: dave.email, password: dave.password });
    expect(login.httpStatus).toBe(403);
    expect(login.body.message).toBe('This account has been disabled. Please contact your administrator.');

    const detail = await server.post<{ data: { user: { status: string }; active_sessions: number } }>(
      'admin-get-user.php',
      {
        token: admin.token,
        id: dave.user.id,
      },
    );
    expect(detail.body.data?.data).toMatchObject({ user: { status: 'disabled' }, active_sessions: 0 });

    const [entry] = await auditFor(server, 'user.disabled').then((rows) =>
      rows.filter((row) => row.targetId === String(dave.user.id)),
    );
    expect(entry).toMatchObject({ actorId: admin.user.id, targetType: 'user', ipAddress: '127.0.0.1' });

    expect((await server.post('admin-enable-users.php', { token: admin.token, ids: dave.user.id })).httpStatus).toBe(
      200,
    );
    const back = await server.post('login.php', { email: dave.email, password: dave.password });
    expect(back.httpStatus).toBe(200);
  });

  it('writes an audit row for each action with who, what, target, when and address', async () => {
    const erin = await server.signUp({ username: 'Erin' });
    const meeting = await seedMeeting(server, erin.user.id, { state: 'live', present: 1, startOffset: -60 });
    const channel = await seedChannel(server, erin.user.id, 'Erin TV');
    const message = await seedContactMessage(server);
    const event = await seedCalendarEvent(server, erin.user.id);
    const steps: [string, Fields, string][] = [
      ['admin-update-user-role.php', { id: erin.user.id, role_id: 1 }, 'user.role_changed'],
      ['admin-update-user-role.php', { id: erin.user.id, role_id: 2 }, 'user.role_changed'],
      ['admin-send-password-reset.php', { id: erin.user.id }, 'user.password_reset_sent'],
      ['admin-end-meeting.php', { id: meeting.id }, 'meeting.ended'],
      ['admin-delete-meeting.php', { id: meeting.id }, 'meeting.deleted'],
      ['admin-hide-channel.php', { id: channel.id }, 'channel.hidden'],
      ['admin-unhide-channel.php', { id: channel.id }, 'channel.unhidden'],
      ['admin-delete-channel.php', { id: channel.id }, 'channel.deleted'],
      ['admin-update-contact-message.php', { id: message.id, status: 'read' }, 'contact_message.status_changed'],
      ['admin-reply-contact-message.php', { id: message.id, message: 'Hello!' }, 'contact_message.replied'],
      ['admin-delete-contact-message.php', { id: message.id }, 'contact_message.deleted'],
      ['admin-delete-event.php', { kind: 'event', id: event.id }, 'event.deleted'],
      ['admin-delete-users.php', { ids: erin.user.id }, 'user.deleted'],
    ];
    for (const [name, fields, action] of steps) {
      const startedAt = Date.now() - 1000;
      const before = (await auditFor(server, action)).length;
      const answer = await server.post(name, { ...fields, token: admin.token });
      expect(answer.httpStatus, `${name}: ${answer.body.message}`).toBe(200);
      const rows = await auditFor(server, action);
      expect(rows.length, name).toBe(before + 1);
      const row = rows.at(-1);
      expect(row?.actorId).toBe(admin.user.id);
      expect(row?.ipAddress).toBe('127.0.0.1');
      expect(row?.targetId).toBe(String(fields.id ?? fields.ids));
      expect(row?.createdAt.getTime()).toBeGreaterThanOrEqual(startedAt);
    }
    const listed = await server.post<{ data: { action: string; actor: { id: number } | null }[]; total: number }>(
      'admin-get-audit-log.php',
      { token: admin.token, per_page: 5 },
    );
    expect(listed.body.data?.data[0]).toMatchObject({ action: 'user.deleted', actor: { id: admin.user.id } });
    expect(listed.body.data?.total).toBeGreaterThanOrEqual(steps.length);
    const total = await server.built.context.db.select().from(auditLog);
    expect(total.length).toBe(listed.body.data?.total);
  });

  it('never answers 5xx to random payloads, with or without an administrator token', async () => {
    const names = calls.map(([name]) => name);
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer({ min: -5, max: 3_000_000_000 }).map(String),
      fc.constantFrom(
        '',
        '1',
        '2',
        '0',
        '-1',
        '1,2,3',
        'new',
        'read',
        'answered',
        'event',
        'meeting',
        'users',
        'events',
        'asc',
        'desc',
        'id',
        'x'.repeat(300),
      ),
    );
    const fieldNames = [
      'id',
      'ids',
      'role_id',
      'status',
      'message',
      'subject',
      'search',
      'sort',
      'direction',
      'page',
      'per_page',
      'start',
      'end',
      'kind',
      'occurrence_start',
      'table',
      'state',
      'hidden',
      'lng',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.dictionary(fc.constantFrom(...fieldNames), value, { maxKeys: 6 }),
        fc.constantFrom('admin', 'regular', 'none'),
        async (name, fields, who) => {
          const token = who === 'admin' ? admin.token : who === 'regular' ? alice.token : undefined;
          const answer = await rawPost(server, name, { ...fields, token });
          expect(answer.status, `${name} ${JSON.stringify(fields)}`).toBeLessThan(500);
          if (who !== 'admin') expect([400, 401, 403]).toContain(answer.status);
        },
      ),
      { numRuns: 150 },
    );
    // The administrator survived whatever the random calls asked for.
    const [still] = await server.built.context.db.select().from(users).where(eq(users.id, admin.user.id));
    expect(still).toMatchObject({ roleId: ROLE.admin, disabledAt: null });
  });
});

describe('authentication comes before validation', () => {
  let server: TestServer;
  let regular: SignedIn;
  beforeAll(async () => {
    server = await startTestServer('pglite');
    await server.signUp({ username: 'First Admin' });
    regular = await server.signUp({ username: 'Regular' });
  });
  afterAll(() => server.close());

  const badFields: Fields = { id: 'not-a-number', ids: '[[[', role_id: 'x', table: 'nothing' };

  // Every admin call the server offers, the CSV export included (hide and unhide a channel and the
  // export once checked the token only after the fields, answering 400).
  it('every admin call answers 401 without a token and 403 for a regular user, whatever the fields', async () => {
    const spec = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    const adminCalls = Object.keys(spec.paths)
      .filter((path) => path.startsWith('/api/admin-'))
      .map((path) => path.slice('/api/'.length));
    expect(adminCalls.length).toBeGreaterThan(20);
    for (const call of adminCalls) {
      const anonymous = await server.post(call, badFields);
      expect(anonymous.httpStatus, `${call} without a token`).toBe(401);
      expect(anonymous.body.status, call).toBe('error');
      expect((await server.post(call, { ...badFields, token: 'made-up' })).httpStatus, call).toBe(401);
      expect((await server.post(call, { ...badFields, token: regular.token })).httpStatus, call).toBe(403);
    }
  });

  it('answers 401 to a signed-in call without a token before looking at its fields', async () => {
    const answer = await server.post('add-meeting.php', { name: '', start_time: 'soon', repeat: 3 });
    expect(answer.httpStatus).toBe(401);
  });
});
