import { readCookie, removeCookie, writeCookie } from './cookies';

/** The session cookie: named after the product, it holds the session token (ADR 004, docs/security.md). */
export const SESSION_COOKIE = 'meetcastUser';

/** Matches the server's session lifetime (30 days); the server stays the judge of validity. */
const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

export function readSessionToken(): string | undefined {
  const token = readCookie(SESSION_COOKIE);
  return token ? token : undefined;
}

export function storeSessionToken(token: string) {
  writeCookie(SESSION_COOKIE, token, { maxAgeSeconds: SESSION_MAX_AGE_SECONDS });
}

/** Sign Out and an invalid token both clear every session cookie. */
export function clearSessionCookies() {
  removeCookie(SESSION_COOKIE);
}
