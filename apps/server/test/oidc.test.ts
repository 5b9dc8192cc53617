import { eq, externalIdentities, externalLoginAttempts, users } from '@meetcast/db';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  begin,
  CALLBACK,
  callbackFields,
  finish,
  oidcEnv,
  provider,
  signInThroughProvider,
  uniqueLogin,
  withTestProvider,
  type Methods,
  type Session,
} from './oidc-helpers.js';
import { authorizeAtProvider } from '@meetcast/testkit/oidc-provider';
import { BACKENDS } from './test-database.js';
import { startTestServer, uniqueEmail, type TestServer } from './test-server.js';

withTestProvider();

describe.each(BACKENDS)('external sign-in on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, oidcEnv());
  });
  afterAll(() => server.close());

  it('makes the first-ever user, arriving through the provider, the administrator', async () => {
    const login = uniqueLogin('ada');
    const email = `${login}@example.com`;
    provider.accounts.set(login, {
      email,
      email_verified: true,
      name: 'Ada  Lovelace',
      picture: provider.pictures.small,
    });
    const { answer } = await signInThroughProvider(server, login);
    expect(answer.httpStatus).toBe(200);
    expect(answer.body.message).toBe('Welcome! Your account was created with Test ID, and you are signed in.');
    const user = answer.body.data?.data;
    expect(user).toMatchObject({ email, username: 'Ada Lovelace', role_id: 1 });
    expect(user?.avatar).toMatch(/^uploads\/avatars\/[0-9a-f]{32}\.webp$/);
    const served = await fetch(`${server.baseUrl}/${user?.avatar}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(20);

    const verified = await server.post<Session>('tokenverify.php', { token: answer.body.data?.token });
    expect(verified.body.data?.data.id).toBe(user?.id);
    const methods = await server.post<Methods>('get-sign-in-methods.php', { token: answer.body.data?.token });
    expect(methods.body.data?.data).toMatchObject({
      has_password: false,
      external: [{ provider: 'Test ID', email }],
    });

    // Coming back signs the same account in; the second account is a regular user.
    const again = await signInThroughProvider(server, login);
    expect(again.answer.body.message).toBe('You are signed in with Test ID.');
    expect(again.answer.body.data?.data.id).toBe(user?.id);
    const second = await signInThroughProvider(server, uniqueLogin('bob'));
    expect(second.answer.body.data?.data.role_id).toBe(2);
  });

  it('lets someone who only used the provider set a password, then sign in with it', async () => {
    const login = uniqueLogin('setpw');
    const { answer } = await signInThroughProvider(server, login);
    const token = answer.body.data?.token;
    const set = await server.post('change-password.php', { token, password: 'my first password' });
    expect(set.httpStatus).toBe(200);
    const methods = await server.post<Methods>('get-sign-in-methods.php', { token });
    expect(methods.body.data?.data).toMatchObject({ has_password: true, external: [{ provider: 'Test ID' }] });
    const local = await server.post('login.php', { email: `${login}@example.com`, password: 'my first password' });
    expect(local.httpStatus).toBe(200);
  });

  it('tells the web app which button to show', async () => {
    const config = await server.post('get-auth-config.php');
    expect(config.body).toMatchObject({ status: 'success', data: { oidc: { display_name: 'Test ID' } } });
  });

  it('refuses a replayed code', async () => {
    const { answer, callback, cookie } = await signInThroughProvider(server, uniqueLogin('replay'));
    expect(answer.httpStatus).toBe(200);
    // The same answer again: the pending sign-in is gone.
    const replayed = await finish(server, cookie, callbackFields(callback));
    expect(replayed.httpStatus).toBe(400);
    expect(replayed.body).toEqual({
      status: 'error',
      message: 'This sign-in has expired or was already used. Please start again from the sign-in page.',
    });
    // The old code inside a fresh sign-in: the provider refuses it.
    const fresh = await begin(server);
    const freshState = new URL(fresh.url).searchParams.get('state') ?? '';
    const reused = await finish(server, fresh.cookie, callbackFields(callback, { state: freshState }));
    expect(reused.httpStatus).toBe(400);
    expect(reused.body.message).toBe(
      'Test ID did not accept the sign-in code: it is wrong, expired or already used. Please start again.',
    );
  });

  it('refuses a wrong state, and the pending sign-in cannot be retried', async () => {
    const { url, cookie } = await begin(server);
    const callback = await authorizeAtProvider(url, uniqueLogin('state'), CALLBACK);
    const wrong = await finish(server, cookie, callbackFields(callback, { state: 'not-the-state-we-sent' }));
    expect(wrong.httpStatus).toBe(400);
    expect(wrong.body.message).toBe(
      'This answer from Test ID does not belong to the sign-in you started. Please start again.',
    );
    const retry = await finish(server, cookie, callbackFields(callback));
    expect(retry.httpStatus).toBe(400);
    expect(retry.body.message).toMatch(/expired or was already used/);
  });

  it('refuses a code without the cookie of the browser that started the sign-in', async () => {
    const { url } = await begin(server);
    const callback = await authorizeAtProvider(url, uniqueLogin('nocookie'), CALLBACK);
    const other = await begin(server);
    const answer = await finish(server, other.cookie, callbackFields(callback));
    expect(answer.httpStatus).toBe(400);
    expect((await finish(server, '', callbackFields(callback))).httpStatus).toBe(400);
  });

  it.each([
    ['audience', 'an ID token issued for another client'],
    ['signature', 'an ID token signed with a key the provider does not publish'],
    ['expired', 'an expired ID token'],
    ['nonce', 'an ID token with the nonce of another sign-in'],
    ['issuer', 'an ID token from another issuer'],
  ] as const)('refuses %s tampering (%s) and creates nothing', async (tamper, _what) => {
    const login = uniqueLogin(`forged${tamper}`);
    const { url, cookie } = await begin(server);
    const callback = await authorizeAtProvider(url, login, CALLBACK);
    provider.tamper = tamper;
    const answer = await finish(server, cookie, callbackFields(callback));
    expect(provider.tamper).toBeUndefined();
    expect(answer.httpStatus).toBe(401);
    expect(answer.body).toEqual({
      status: 'error',
      message: 'The identity sent by Test ID could not be verified. Please start again.',
    });
    const db = server.built.context.db;
    expect(
      await db
        .select()
        .from(users)
        .where(eq(users.email, `${login}@example.com`)),
    ).toHaveLength(0);
  });

  it('refuses an expired code', async () => {
    provider.codeTtlSeconds = 1;
    try {
      const { url, cookie } = await begin(server);
      const callback = await authorizeAtProvider(url, uniqueLogin('slow'), CALLBACK);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const answer = await finish(server, cookie, callbackFields(callback));
      expect(answer.httpStatus).toBe(400);
      expect(answer.body.message).toMatch(/did not accept the sign-in code/);
    } finally {
      provider.codeTtlSeconds = 60;
    }
  });

  it('refuses a sign-in that waited too long on our side', async () => {
    const { url, cookie } = await begin(server);
    const callback = await authorizeAtProvider(url, uniqueLogin('late'), CALLBACK);
    await server.built.context.db.update(externalLoginAttempts).set({ expiresAt: new Date(Date.now() - 1000) });
    const answer = await finish(server, cookie, callbackFields(callback));
    expect(answer.httpStatus).toBe(400);
    expect(answer.body.message).toMatch(/expired or was already used/);
  });

  it('reports a sign-in cancelled at the provider', async () => {
    const { url, cookie } = await begin(server);
    const callback = await authorizeAtProvider(url, uniqueLogin('cancel'), CALLBACK, { abortConsent: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const answer = await finish(server, cookie, callbackFields(callback));
    expect(answer.httpStatus).toBe(400);
    expect(answer.body.message).toBe('The sign-in at Test ID was cancelled or refused.');
  });

  it('never links an unverified address to an existing account', async () => {
    const owner = await server.signUp({ username: 'Owner' });
    const login = uniqueLogin('squatter');
    provider.accounts.set(login, { email: owner.email, email_verified: false, name: 'Squatter' });
    const { answer } = await signInThroughProvider(server, login);
    expect(answer.httpStatus).toBe(409);
    expect(answer.body).toEqual({
      status: 'error',
      message: `An account with the address ${owner.email} already exists. Test ID has not verified this address, so it cannot be linked to that account. Sign in with your password instead.`,
    });
    const db = server.built.context.db;
    expect(await db.select().from(externalIdentities).where(eq(externalIdentities.userId, owner.user.id))).toEqual([]);
    const [row] = await db.select().from(users).where(eq(users.id, owner.user.id));
    expect(row).toMatchObject({ username: 'Owner', avatar: null });
    expect((await server.post('login.php', { email: owner.email, password: owner.password })).httpStatus).toBe(200);

    // A provider that does not say the address is verified is treated the same way.
    const silent = uniqueLogin('silent');
    provider.accounts.set(silent, { email: owner.email, name: 'Silent' });
    expect((await signInThroughProvider(server, silent)).answer.httpStatus).toBe(409);
  });

  it('links a verified address to the existing account', async () => {
    const owner = await server.signUp({ username: 'Grace' });
    const login = uniqueLogin('grace');
    provider.accounts.set(login, {
      email: owner.email,
      email_verified: true,
      name: 'Grace H.',
      picture: provider.pictures.small,
    });
    const { answer } = await signInThroughProvider(server, login);
    expect(answer.httpStatus).toBe(200);
    expect(answer.body.message).toBe('Your Test ID sign-in is now linked to your account, and you are signed in.');
    expect(answer.body.data?.data).toMatchObject({ id: owner.user.id, username: 'Grace', role_id: 2 });
    expect(answer.body.data?.data.avatar).toMatch(/^uploads\/avatars\//);
    const methods = await server.post<Methods>('get-sign-in-methods.php', { token: owner.token });
    expect(methods.body.data?.data).toMatchObject({ has_password: true, external: [{ email: owner.email }] });
  });

  it('refuses to create an account from an address the provider marks unverified', async () => {
    const login = uniqueLogin('unverified');
    provider.accounts.set(login, { email: `${login}@example.com`, email_verified: false });
    const { answer } = await signInThroughProvider(server, login);
    expect(answer.httpStatus).toBe(403);
    expect(answer.body.message).toBe('Test ID has not verified your e-mail address. Verify it there, then try again.');
  });

  it('refuses an identity without a usable e-mail address', async () => {
    for (const email of [undefined, 'not-an-address']) {
      const login = uniqueLogin('noemail');
      provider.accounts.set(login, { email, email_verified: true, name: 'No Mail' });
      const { answer } = await signInThroughProvider(server, login);
      expect(answer.httpStatus).toBe(400);
      expect(answer.body.message).toBe('Test ID did not share your e-mail address, which is needed to sign you in.');
    }
  });

  it('takes over a sign-up nobody confirmed, and its password stops working', async () => {
    const email = uniqueEmail('pending');
    await server.post('signup.php', { username: 'Pending', email, password: 'squatter password' });
    const login = uniqueLogin('realowner');
    provider.accounts.set(login, { email, email_verified: true, name: 'Real Owner' });
    const { answer } = await signInThroughProvider(server, login);
    expect(answer.httpStatus).toBe(200);
    expect(answer.body.data?.data).toMatchObject({ email, username: 'Real Owner' });
    expect((await server.post('login.php', { email, password: 'squatter password' })).httpStatus).toBe(401);
  });

  it('refuses a disabled account', async () => {
    const login = uniqueLogin('disabled');
    const { answer } = await signInThroughProvider(server, login);
    const id = answer.body.data?.data.id ?? 0;
    await server.built.context.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, id));
    const again = await signInThroughProvider(server, login);
    expect(again.answer.httpStatus).toBe(403);
  });

  it('keeps pictures safe: too large, not an image, or on a private address means no avatar', async () => {
    for (const picture of [
      provider.pictures.huge,
      provider.pictures.text,
      provider.pictures.small.replace('127.0.0.1', 'localhost'),
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
    ]) {
      const login = uniqueLogin('picture');
      provider.accounts.set(login, { email: `${login}@example.com`, email_verified: true, name: 'Pic', picture });
      const { answer } = await signInThroughProvider(server, login);
      expect(answer.httpStatus, picture).toBe(200);
      expect(answer.body.data?.data.avatar, picture).toBeNull();
    }
  });

  it('answers the callback in the contract shape when fields are missing', async () => {
    const { cookie } = await begin(server);
    const answer = await finish(server, cookie, { state: 'x' });
    expect(answer.httpStatus).toBe(400);
    expect(answer.body.message).toBe('The answer from Test ID carries no sign-in code. Please start again.');
    expect((await server.post('get-sign-in-methods.php', {})).httpStatus).toBe(401);
  });

  it('clears the pending sign-in cookie, also on failure', async () => {
    const { cookie, setCookie } = await begin(server);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\/api\/meetcast-names-login\.php/);
    const response = await fetch(`${server.baseUrl}/api/meetcast-names-login.php`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=abc&state=wrong',
    });
    expect(response.status).toBe(400);
    expect(response.headers.getSetCookie().join()).toMatch(/meetcast_oidc=;.*Max-Age=0/);
  });

  it('never answers 5xx to random payloads', async () => {
    const { cookie } = await begin(server);
    const value = fc.oneof(fc.string({ maxLength: 80 }), fc.integer().map(String), fc.constant(''));
    const payload = fc.dictionary(fc.constantFrom('token', 'state', 'iss', 'error', 'lng', 'code', 'x'), value);
    const calls = [
      'meetcast-names-login.php',
      'start-external-login.php',
      'get-auth-config.php',
      'get-sign-in-methods.php',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...calls), payload, async (call, fields) => {
        const answer = await server.post(call, fields, { cookie });
        expect(answer.httpStatus).toBeLessThan(500);
        expect(['success', 'error']).toContain(answer.body.status);
      }),
      { numRuns: 60 },
    );
  });
});
