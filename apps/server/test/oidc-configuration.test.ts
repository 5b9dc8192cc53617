import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcEnv, provider, PUBLIC_URL, signInThroughProvider, uniqueLogin, withTestProvider } from './oidc-helpers.js';
import { BACKENDS } from './test-database.js';
import { startTestServer, type TestServer } from './test-server.js';

withTestProvider();

describe.each(BACKENDS)('external sign-in with an allowed-domain list on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, oidcEnv({ OIDC_ALLOWED_DOMAINS: 'allowed.test, Other-Allowed.test' }));
  });
  afterAll(() => server.close());

  it('lets only the listed domains in', async () => {
    const outsider = uniqueLogin('outsider');
    provider.accounts.set(outsider, { email: `${outsider}@elsewhere.test`, email_verified: true });
    const refused = await signInThroughProvider(server, outsider);
    expect(refused.answer.httpStatus).toBe(403);
    expect(refused.answer.body.message).toBe('Addresses at elsewhere.test are not allowed to sign in here.');

    const lookalike = uniqueLogin('lookalike');
    provider.accounts.set(lookalike, { email: `${lookalike}@sub.allowed.test`, email_verified: true });
    expect((await signInThroughProvider(server, lookalike)).answer.httpStatus).toBe(403);

    const insider = uniqueLogin('insider');
    provider.accounts.set(insider, { email: `${insider}@other-allowed.test`, email_verified: true });
    const admitted = await signInThroughProvider(server, insider);
    expect(admitted.answer.httpStatus).toBe(200);
    expect(admitted.answer.body.data?.data.email).toBe(`${insider}@other-allowed.test`);
  });
});

describe('external sign-in when it is not configured, or the provider is down', () => {
  it('hides the button and answers a clear error', async () => {
    const server = await startTestServer('pglite', { PUBLIC_URL });
    try {
      const config = await server.post('get-auth-config.php');
      expect(config.body).toMatchObject({ status: 'success', data: { oidc: null } });
      for (const call of ['start-external-login.php', 'meetcast-names-login.php']) {
        const answer = await server.post(call, { token: 'some-code' });
        expect(answer.httpStatus).toBe(404);
        expect(answer.body).toEqual({
          status: 'error',
          message: 'Sign-in through an external provider is not set up on this server.',
        });
      }
      const french = await server.post('start-external-login.php', { lng: 'fr' });
      expect(french.body.message).not.toBe('Sign-in through an external provider is not set up on this server.');
    } finally {
      await server.close();
    }
  });

  it('answers 503 while the provider cannot be reached', async () => {
    const server = await startTestServer('pglite', oidcEnv({ OIDC_ISSUER: 'http://127.0.0.1:9' }));
    try {
      const answer = await server.post('start-external-login.php');
      expect(answer.httpStatus).toBe(503);
      expect(answer.body.message).toBe('Test ID cannot be reached right now. Please try again later.');
    } finally {
      await server.close();
    }
  });
});
