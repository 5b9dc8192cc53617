import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMeeting, meetingFields } from './meeting-helpers.js';
import { everyCall, readOpenApi, readOperations, type Operation } from './openapi-surface.js';
import { startTestServer, type SignedIn, type TestServer } from './test-server.js';

/** Fields that fail validation almost everywhere: the token must be judged before them. */
const JUNK = { id: 'x', ids: '[[', name: '', slug: '%%', start_time: 'soon', role_id: 'root', page: -1 };

describe('authorization matrix of every operation', () => {
  let server: TestServer;
  let alice: SignedIn;
  let bob: SignedIn;
  let operations: Operation[];

  beforeAll(async () => {
    server = await startTestServer('pglite');
    await server.signUp({ username: 'Matrix Admin' });
    alice = await server.signUp({ username: 'Alice Matrix' });
    bob = await server.signUp({ username: 'Bob Matrix' });
    operations = await readOperations(server.baseUrl);
  });
  afterAll(() => server.close());

  it('declares most operations as signed-in or administrator calls', () => {
    expect(operations.filter((operation) => operation.auth === 'user').length).toBeGreaterThan(40);
    expect(operations.filter((operation) => operation.auth === 'admin').length).toBeGreaterThan(15);
  });

  it('serves every call of the table of calls and no other, each with the security its auth says', async () => {
    const document = await readOpenApi(server.baseUrl);
    const served = Object.entries(document.paths).filter(([path, item]) => path.startsWith('/api/') && item.post);
    expect(served.map(([path]) => path).sort()).toEqual(
      Object.keys(everyCall)
        .map((name) => `/api/${name}`)
        .sort(),
    );
    for (const [path, item] of served) {
      const { auth } = everyCall[path.replace('/api/', '') as keyof typeof everyCall];
      const expected = {
        none: undefined,
        optional: [{}, { token: [] }],
        user: [{ token: [] }],
        admin: [{ token: ['administrator'] }],
      }[auth];
      expect(item.post?.security, path).toEqual(expected);
    }
  });

  it('answers 401 to every signed-in operation without a valid token, before any validation', async () => {
    for (const operation of operations.filter((candidate) => candidate.auth === 'user' || candidate.auth === 'admin')) {
      const call = operation.name;
      for (const token of [undefined, 'not-a-real-token', 'x'.repeat(600)]) {
        const answer = await server.post(call, { ...JUNK, ...(token ? { token } : {}) });
        expect(answer.httpStatus, `${call} with token ${token?.slice(0, 10)}`).toBe(401);
        expect(answer.body.status).toBe('error');
      }
    }
  });

  it('marks every operation that refuses a caller without a token (or a regular user) in the description', async () => {
    // Judged by what each call answers, not by what it declares: a call that is not marked must not refuse.
    const carol = await server.signUp({ username: 'Carol Matrix' });
    let token = carol.token;
    for (const operation of operations.filter((candidate) => candidate.auth !== 'admin')) {
      const call = operation.name;
      const anonymous = await server.post(call, JUNK);
      if (operation.auth !== 'user') expect(anonymous.httpStatus, `${call} without a token`).not.toBe(401);
      let regular = await server.post(call, { ...JUNK, token });
      if (regular.httpStatus === 401) {
        // An earlier call ended the session (sign-out): again with a fresh one.
        const login = await server.post<{ token: string }>('login.php', {
          email: carol.email,
          password: carol.password,
        });
        token = login.body.data!.token;
        regular = await server.post(call, { ...JUNK, token });
      }
      expect(regular.httpStatus, `${call} as a regular user`).not.toBe(403);
    }
  });

  it('answers 403 to every administrator operation called by a regular user, before any validation', async () => {
    for (const operation of operations.filter((candidate) => candidate.auth === 'admin')) {
      const answer = await server.post(operation.name, { ...JUNK, token: alice.token });
      expect(answer.httpStatus, operation.path).toBe(403);
    }
  });

  it("answers 404 when a user names another user's meeting or contact", async () => {
    const meeting = await addMeeting(server, bob, { is_private: 1 });
    const contact = await server.post<{ id: number }>('add-contact.php', {
      token: bob.token,
      name: 'Bob’s friend',
      email: 'friend@example.com',
    });
    const contactId = contact.body.data?.id;
    expect(contactId).toBeGreaterThan(0);
    const foreign: [string, Record<string, string | number | undefined>][] = [
      ['get-meeting.php', { id: meeting.id }],
      ['edit-meeting.php', { ...meetingFields({ name: 'Taken over' }), id: meeting.id }],
      ['cancel-meeting.php', { id: meeting.id }],
      ['delete-meeting.php', { id: meeting.id }],
      ['update-contact.php', { id: contactId!, name: 'Renamed' }],
      ['delete-contact.php', { id: contactId! }],
      ['restore-contact.php', { id: contactId! }],
    ];
    for (const [call, fields] of foreign) {
      const answer = await server.post(call, { token: alice.token, ...fields });
      expect(answer.httpStatus, call).toBe(404);
    }
    const stillThere = await server.post<{ name: string }>('get-meeting.php', { token: bob.token, id: meeting.id });
    expect(stillThere.httpStatus).toBe(200);
  });
});
