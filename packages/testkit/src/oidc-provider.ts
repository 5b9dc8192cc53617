import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWK } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
import sharp from 'sharp';

/**
 * A real OpenID Provider (panva's oidc-provider) on a loopback port, with its development login
 * and consent pages, for the API tests and the Playwright run. Everything a test may want to vary
 * lives on the returned object: the accounts behind the login form and how the next token answer
 * is tampered with.
 */

export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  picture?: string;
}

/** How the next ID token the token endpoint returns is altered (then the mode resets). */
export type Tamper = 'audience' | 'signature' | 'expired' | 'nonce' | 'issuer';

export interface TestProvider {
  issuer: string;
  client: { id: string; secret: string };
  /** Logins the dev form accepts: any login works; these carry the claims a test chose. */
  accounts: Map<string, ProviderAccount>;
  tamper: Tamper | undefined;
  /** Lifetime of authorization codes in seconds (the provider's default is 60). */
  codeTtlSeconds: number;
  /** Addresses of pictures the provider serves: a small PNG, a too-large one, and a non-image. */
  pictures: { small: string; huge: string; text: string };
  close(): Promise<void>;
}

export interface TestProviderOptions {
  port?: number;
  /** Where the relying party receives the code, e.g. `http://meetcast.test/meetcast-names-login`. */
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
}

export const SECOND_CLIENT = { id: 'another-app', secret: 'another-app-secret-with-enough-length' };

function defaultClaims(login: string): ProviderAccount {
  return { email: `${login.toLowerCase()}@example.com`, email_verified: true, name: login };
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  let handler: http.RequestListener = (_request, response) => response.writeHead(503).end();
  const server = http.createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const { privateKey: foreignKey } = await generateKeyPair('RS256');

  const smallPng = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 120, b: 200 } },
  })
    .png()
    .toBuffer();

  const state: TestProvider = {
    issuer,
    client: { id: options.clientId ?? 'meetcast', secret: options.clientSecret ?? 'meetcast-test-secret-with-length' },
    accounts: new Map(),
    tamper: undefined,
    codeTtlSeconds: 60,
    pictures: {
      small: `${issuer}/test-pictures/small.png`,
      huge: `${issuer}/test-pictures/huge.png`,
      text: `${issuer}/test-pictures/page.html`,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const configuration: Configuration = {
    clients: [
      {
        client_id: state.client.id,
        client_secret: state.client.secret,
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
      {
        client_id: SECOND_CLIENT.id,
        client_secret: SECOND_CLIENT.secret,
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [signingKey as never] },
    cookies: { keys: ['meetcast-test-provider-cookie-key'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username', 'picture'],
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: () => state.codeTtlSeconds,
      AccessToken: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    async findAccount(_context, id) {
      const claims = state.accounts.get(id) ?? defaultClaims(id);
      return { accountId: id, claims: () => ({ sub: id, ...claims }) };
    },
  };

  const provider = new Provider(issuer, configuration);
  // The dev pages are served without our own UI; keep the provider's log noise out of test output.
  provider.on('server_error', () => undefined);

  provider.use(async (context, next) => {
    const picture = /^\/test-pictures\/(.+)$/.exec(context.path)?.[1];
    if (picture === 'small.png') {
      context.type = 'image/png';
      context.body = smallPng;
      return;
    }
    if (picture === 'huge.png') {
      context.type = 'image/png';
      context.body = Buffer.alloc(3 * 1024 * 1024, 1);
      return;
    }
    if (picture === 'page.html') {
      context.type = 'text/html';
      context.body = '<h1>not an image</h1>';
      return;
    }
    await next();
    const body = context.body as { id_token?: string } | undefined;
    const tamper = state.tamper;
    if (context.path !== '/token' || !tamper || typeof body?.id_token !== 'string') return;
    state.tamper = undefined;
    const claims = decodeJwt(body.id_token);
    const now = Math.floor(Date.now() / 1000);
    if (tamper === 'audience') claims.aud = SECOND_CLIENT.id;
    if (tamper === 'expired') Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
    if (tamper === 'nonce') claims.nonce = 'a-nonce-from-another-sign-in';
    if (tamper === 'issuer') claims.iss = 'http://evil.example';
    const key = tamper === 'signature' ? foreignKey : privateKey;
    body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(key);
  });

  handler = provider.callback();
  return state;
}

/** A cookie jar over fetch that does not follow redirects, the way a browser would handle them. */
export class CookieBrowser {
  private readonly cookies = new Map<string, string>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    }
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const isExpired = attributes.some(
        (attribute) =>
          /^\s*max-age=0/i.test(attribute) ||
          (/^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1] ?? '') < Date.now()),
      );
      if (isExpired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

/**
 * Drives the provider's development pages like a person would: follows redirects, fills the login
 * form (any login, any password) and confirms consent, until the provider redirects to the relying
 * party. Returns that redirect address (with `code`, `state` and `iss`, or `error`).
 */
export async function authorizeAtProvider(
  authorizationUrl: string,
  login: string,
  callbackPrefix: string,
  options: { abortConsent?: boolean } = {},
): Promise<URL> {
  const browser = new CookieBrowser();
  let url = authorizationUrl;
  for (let step = 0; step < 20; step++) {
    const response = await browser.fetch(url);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url);
      if (next.href.startsWith(callbackPrefix)) return next;
      url = next.href;
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page (${response.status}): ${page.slice(0, 300)}`);
    if (prompt === 'consent' && options.abortConsent) {
      url = new URL(action.replace(/\/?$/, '/abort'), url).href;
      continue;
    }
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      form.set('login', login);
      form.set('password', 'any password works here');
    }
    const submitted = await browser.fetch(new URL(action, url).href, { method: 'POST', body: form });
    const submittedTo = submitted.headers.get('location');
    if (!submittedTo) throw new Error(`provider did not redirect after ${prompt} (${submitted.status})`);
    const next = new URL(submittedTo, url);
    if (next.href.startsWith(callbackPrefix)) return next;
    url = next.href;
  }
  throw new Error('too many steps at the provider');
}
