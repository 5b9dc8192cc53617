import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the two fake platforms share: a small HTTP server, an OAuth 2.0 authorization-code store
 * (consent page, single-use codes, access and refresh tokens, revocation) and failure injection.
 * Written from the platforms' documentation; only what Meetcast uses is there.
 */

export interface FakeRequest {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  /** application/x-www-form-urlencoded fields (the OAuth endpoints). */
  form: Record<string, string>;
  /** A JSON body (the Data API and Helix), or undefined. */
  json: unknown;
}

export interface FakeReply {
  status: number;
  json?: unknown;
  html?: string;
  location?: string;
  /** Raw bytes (a picture) with their content type. */
  body?: Buffer;
  type?: string;
}

export const randomId = (bytes = 12) => randomBytes(bytes).toString('base64url');

export interface FakeServer {
  url: string;
  close(): Promise<void>;
}

/** A loopback HTTP server answering with `handle`; a handler that throws answers 500 (a bug in the fake). */
export async function startFakeServer(
  handle: (request: FakeRequest) => Promise<FakeReply> | FakeReply,
  port = 0,
): Promise<FakeServer> {
  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const type = incoming.headers['content-type'] ?? '';
        let json: unknown;
        if (type.includes('application/json') && raw) {
          try {
            json = JSON.parse(raw) as unknown;
          } catch {
            json = undefined;
          }
        }
        const form = type.includes('application/x-www-form-urlencoded')
          ? Object.fromEntries(new URLSearchParams(raw))
          : {};
        const request: FakeRequest = {
          method: incoming.method ?? 'GET',
          url: new URL(incoming.url ?? '/', 'http://fake.invalid'),
          headers: incoming.headers,
          form,
          json,
        };
        let reply: FakeReply;
        try {
          reply = await handle(request);
        } catch (error) {
          reply = { status: 500, json: { error: String(error) } };
        }
        if (reply.location) {
          outgoing.writeHead(reply.status, { location: reply.location }).end();
        } else if (reply.body !== undefined) {
          outgoing.writeHead(reply.status, { 'content-type': reply.type ?? 'application/octet-stream' });
          outgoing.end(reply.body);
        } else if (reply.html !== undefined) {
          outgoing.writeHead(reply.status, { 'content-type': 'text/html; charset=utf-8' }).end(reply.html);
        } else if (reply.json !== undefined) {
          outgoing.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8' });
          outgoing.end(JSON.stringify(reply.json));
        } else {
          outgoing.writeHead(reply.status).end();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Grant {
  id: string;
  clientId: string;
  /** The platform account the person consented with (YouTube channel id, Twitch user id). */
  subject: string;
  scopes: string[];
  revoked: boolean;
}

interface PendingConsent {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  scopes: string[];
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  subject: string;
  expiresAt: number;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  grant: Grant;
}

/** Authorization codes, grants and tokens of one fake platform. */
export class OAuthStore {
  accessTokenLifetimeSeconds: number;
  codeLifetimeSeconds: number;
  readonly grants = new Map<string, Grant>();
  private readonly pending = new Map<string, PendingConsent>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly accessTokens = new Map<string, { grantId: string; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, string>();
  private readonly everIssued = new Set<string>();
  /** Counters for the tests: how often each endpoint was used successfully. */
  readonly counts = { codeExchanges: 0, refreshes: 0, revocations: 0 };

  constructor(options: { accessTokenLifetimeSeconds: number; codeLifetimeSeconds: number }) {
    this.accessTokenLifetimeSeconds = options.accessTokenLifetimeSeconds;
    this.codeLifetimeSeconds = options.codeLifetimeSeconds;
  }

  /** Remembers an authorization request until the person decides on the consent page. */
  startConsent(request: PendingConsent): string {
    const id = randomId();
    this.pending.set(id, request);
    return id;
  }

  /** The redirect back to the app, with a code or with `error=access_denied`; undefined for an unknown request. */
  decide(requestId: string, allow: boolean, subject: string, denyExtras: Record<string, string> = {}) {
    const request = this.pending.get(requestId);
    if (!request) return undefined;
    this.pending.delete(requestId);
    const target = new URL(request.redirectUri);
    if (allow) {
      const code = randomId(24);
      this.codes.set(code, { ...request, subject, expiresAt: Date.now() + this.codeLifetimeSeconds * 1000 });
      target.searchParams.set('code', code);
      target.searchParams.set('scope', request.scopes.join(' '));
    } else {
      target.searchParams.set('error', 'access_denied');
      for (const [name, value] of Object.entries(denyExtras)) target.searchParams.set(name, value);
    }
    if (request.state !== undefined) target.searchParams.set('state', request.state);
    return target.toString();
  }

  /** Codes work once, within their lifetime, for the client and redirect address they were given for. */
  redeemCode(code: string, clientId: string, redirectUri: string | undefined): IssuedTokens | 'invalid' | 'redirect' {
    const issued = this.codes.get(code);
    this.codes.delete(code);
    if (!issued || issued.expiresAt < Date.now() || issued.clientId !== clientId) return 'invalid';
    if (redirectUri !== issued.redirectUri) return 'redirect';
    const grant: Grant = {
      id: randomId(),
      clientId,
      subject: issued.subject,
      scopes: issued.scopes,
      revoked: false,
    };
    this.grants.set(grant.id, grant);
    this.counts.codeExchanges += 1;
    return { ...this.issue(grant), refreshToken: this.newRefreshToken(grant) };
  }

  /** A new access token; with `rotate` the refresh token is replaced and the old one stops working. */
  refresh(refreshToken: string, clientId: string, rotate: boolean): IssuedTokens | undefined {
    const grant = this.grants.get(this.refreshTokens.get(refreshToken) ?? '');
    if (!grant || grant.revoked || grant.clientId !== clientId) return undefined;
    this.counts.refreshes += 1;
    if (!rotate) return { ...this.issue(grant), refreshToken };
    this.refreshTokens.delete(refreshToken);
    return { ...this.issue(grant), refreshToken: this.newRefreshToken(grant) };
  }

  /** The live grant behind an access token, with the seconds it has left; undefined when unknown, expired or revoked. */
  lookup(accessToken: string | undefined): { grant: Grant; expiresIn: number } | undefined {
    const entry = this.accessTokens.get(accessToken ?? '');
    const grant = entry && this.grants.get(entry.grantId);
    if (!entry || !grant || grant.revoked || entry.expiresAt <= Date.now()) return undefined;
    return { grant, expiresIn: Math.floor((entry.expiresAt - Date.now()) / 1000) };
  }

  /** Revoking any token of a grant ends the whole grant (both platforms document it so). */
  revokeToken(token: string, clientId?: string): 'revoked' | 'unknown' | 'client' {
    const grantId = this.accessTokens.get(token)?.grantId ?? this.refreshTokens.get(token);
    const grant = this.grants.get(grantId ?? '');
    if (!grant || grant.revoked) return 'unknown';
    if (clientId !== undefined && grant.clientId !== clientId) return 'client';
    grant.revoked = true;
    this.counts.revocations += 1;
    return 'revoked';
  }

  /** As if every person withdrew the app's access at the platform. */
  revokeAll() {
    for (const grant of this.grants.values()) grant.revoked = true;
  }

  /** Every access and refresh token ever handed out, for tests that look for them where they must not be. */
  issuedTokens(): string[] {
    return [...this.everIssued];
  }

  /** Grants that still work. */
  activeGrants(): Grant[] {
    return [...this.grants.values()].filter((grant) => !grant.revoked);
  }

  private issue(grant: Grant) {
    const accessToken = randomId(32);
    this.everIssued.add(accessToken);
    this.accessTokens.set(accessToken, {
      grantId: grant.id,
      expiresAt: Date.now() + this.accessTokenLifetimeSeconds * 1000,
    });
    return { accessToken, expiresIn: this.accessTokenLifetimeSeconds, grant };
  }

  private newRefreshToken(grant: Grant) {
    const token = randomId(32);
    this.everIssued.add(token);
    this.refreshTokens.set(token, grant.id);
    return token;
  }
}

/** Makes the next `count` calls fail with `status` (a platform outage), then answers normally again. */
export class FailureSwitch {
  private skip = 0;
  private remaining = 0;
  private status = 503;

  /** `after` calls are still answered first: a failure in the middle of a sequence. */
  failNext(count: number, status = 503, after = 0) {
    this.skip = after;
    this.remaining = count;
    this.status = status;
  }

  /** The status to fail this call with, or undefined to answer it. */
  take(): number | undefined {
    if (this.remaining <= 0) return undefined;
    if (this.skip > 0) {
      this.skip -= 1;
      return undefined;
    }
    this.remaining -= 1;
    return this.status;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The consent screen: who asks for what, and an Allow and a Deny button (a plain form, no script). */
export function consentPage(options: {
  platform: string;
  account: string;
  scopes: string[];
  decideUrl: string;
  requestId: string;
}): string {
  const scopes = options.scopes.map((scope) => `<li><code>${escapeHtml(scope)}</code></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(options.platform)}: allow access?</title></head>
<body>
<main>
<h1>${escapeHtml(options.platform)}</h1>
<p>Signed in as <strong>${escapeHtml(options.account)}</strong>.</p>
<p>The application asks to:</p>
<ul>${scopes}</ul>
<form method="get" action="${escapeHtml(options.decideUrl)}">
<input type="hidden" name="request" value="${escapeHtml(options.requestId)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</main>
</body>
</html>`;
}

/**
 * What a browser does on the consent page: opens it, presses Allow or Deny, and answers the address
 * the platform redirects to (the app's /connect-stream with `code`/`error` and `state`).
 */
export async function followConsent(authorizationUrl: string, decision: 'allow' | 'deny'): Promise<URL> {
  const page = await fetch(authorizationUrl);
  const html = await page.text();
  if (!page.ok) throw new Error(`consent page answered ${page.status}: ${html.slice(0, 200)}`);
  const action = /<form method="get" action="([^"]+)"/.exec(html)?.[1];
  const requestId = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !requestId) throw new Error('no consent form on the page');
  const target = new URL(action.replace(/&#38;/g, '&'), authorizationUrl);
  target.searchParams.set('request', requestId);
  target.searchParams.set('decision', decision);
  const answer = await fetch(target, { redirect: 'manual' });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`consent decision answered ${answer.status}`);
  return new URL(location);
}

/** The Bearer token of a request, if it has one. */
export function bearer(request: FakeRequest, scheme = 'Bearer'): string | undefined {
  const header = request.headers.authorization ?? '';
  return header.startsWith(`${scheme} `) ? header.slice(scheme.length + 1) : undefined;
}
