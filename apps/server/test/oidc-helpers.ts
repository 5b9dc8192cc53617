/** Shared by the external sign-in tests: the test provider, our server's settings for it, and the flow steps. */
import { afterAll, beforeAll } from 'vitest';
import { authorizeAtProvider, startTestProvider, type TestProvider } from '@meetcast/testkit/oidc-provider';
import type { ApiAnswer, Fields, TestServer } from './test-server.js';

export const PUBLIC_URL = 'http://meetcast.test';
export const CALLBACK = `${PUBLIC_URL}/meetcast-names-login`;

export type Session = {
  token: string;
  data: { id: number; username: string; email: string; avatar: string | null; role_id: number };
};
export type Methods = {
  data: { has_password: boolean; external: { id: number; provider: string; email: string | null }[] };
};

/** The OpenID provider of the running test file (started by `withTestProvider`). */
export let provider: TestProvider;
let counter = 0;
export const uniqueLogin = (prefix: string) => `${prefix}${process.pid}x${counter++}`;

/** Runs a real OpenID provider (oidc-provider) for the tests of the calling file. */
export function withTestProvider() {
  beforeAll(async () => {
    provider = await startTestProvider({ redirectUris: [CALLBACK] });
  });
  afterAll(() => provider.close());
}

export function oidcEnv(extra: Record<string, string> = {}) {
  return {
    PUBLIC_URL,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.client.id,
    OIDC_CLIENT_SECRET: provider.client.secret,
    OIDC_DISPLAY_NAME: 'Test ID',
    ...extra,
  };
}

/** start-external-login.php: the provider address and the httpOnly cookie it set. */
export async function begin(server: TestServer) {
  const response = await fetch(`${server.baseUrl}/api/start-external-login.php`, { method: 'POST' });
  const body = (await response.json()) as ApiAnswer<{ url: string }>['body'];
  const setCookie = response.headers.getSetCookie().find((line) => line.startsWith('meetcast_oidc='));
  if (response.status !== 200 || !body.data || !setCookie) throw new Error(`start failed: ${body.message}`);
  return { url: body.data.url, cookie: setCookie.split(';')[0] ?? '', setCookie };
}

/** What the callback page posts: the code in `token`, plus `state` and `iss` from the same redirect. */
export function callbackFields(callback: URL, overrides: Fields = {}): Fields {
  return {
    token: callback.searchParams.get('code') ?? undefined,
    state: callback.searchParams.get('state') ?? undefined,
    iss: callback.searchParams.get('iss') ?? undefined,
    error: callback.searchParams.get('error') ?? undefined,
    ...overrides,
  };
}

export async function finish(server: TestServer, cookie: string, fields: Fields) {
  return server.post<Session>('meetcast-names-login.php', fields, { cookie });
}

/** The whole flow: start, provider login and consent pages, then the callback call. */
export async function signInThroughProvider(server: TestServer, login: string) {
  const { url, cookie } = await begin(server);
  const callback = await authorizeAtProvider(url, login, CALLBACK);
  const answer = await finish(server, cookie, callbackFields(callback));
  return { answer, callback, cookie };
}
