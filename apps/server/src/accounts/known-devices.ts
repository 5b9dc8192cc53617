import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie, setCookie } from '../http/cookies.js';
import { secretsBoxFor } from '../platform/secrets-box.js';
import type { AccountsContext } from './accounts-context.js';

/**
 * The HttpOnly cookie that marks a browser which signed in to an account before (docs/decisions/009):
 * such a browser is exempt from the account's ceiling, so guessing from elsewhere cannot lock its owner
 * out. Each entry is signed with the installation's key and bound to one address, so it is worth
 * nothing for another account and cannot be made without signing in.
 */
export const KNOWN_DEVICE_COOKIE = 'meetcastDevice';
const LIFETIME_SECONDS = 180 * 24 * 3600;
/** A browser shared by a family keeps a mark for each of a few accounts. */
const MAX_ENTRIES = 5;
const SIGNING_PURPOSE = 'known-device';

interface DeviceEntry {
  nonce: string;
  issuedAt: number;
  mac: string;
}

function entriesOf(request: FastifyRequest): DeviceEntry[] {
  const cookie = readCookie(request, KNOWN_DEVICE_COOKIE);
  if (!cookie || cookie.length > 1000) return [];
  const entries: DeviceEntry[] = [];
  for (const text of cookie.split('~')) {
    const [nonce, issuedAt, mac, ...rest] = text.split('.');
    if (!nonce || !issuedAt || !mac || rest.length > 0 || !/^[\w-]{16}$/.test(nonce) || !/^\d{1,12}$/.test(issuedAt)) {
      continue;
    }
    entries.push({ nonce, issuedAt: Number(issuedAt), mac });
  }
  return entries;
}

function macOf(context: AccountsContext, nonce: string, issuedAt: number, email: string) {
  return secretsBoxFor(context.config).sign(SIGNING_PURPOSE, `${nonce}.${issuedAt}.${email}`);
}

function belongsTo(context: AccountsContext, entry: DeviceEntry, email: string, now: number) {
  if (entry.issuedAt + LIFETIME_SECONDS < now) return false;
  const expected = Buffer.from(macOf(context, entry.nonce, entry.issuedAt, email));
  const given = Buffer.from(entry.mac);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The name this browser has for `email`'s account, when it signed in to it before. */
export function knownDevice(context: AccountsContext, request: FastifyRequest, email: string): string | undefined {
  const now = nowSeconds();
  return entriesOf(request).find((entry) => belongsTo(context, entry, email, now))?.nonce;
}

/** Marks this browser as one that proved it may use `email`'s account (a sign-in, a reset). */
export function rememberDevice(context: AccountsContext, request: FastifyRequest, reply: FastifyReply, email: string) {
  const now = nowSeconds();
  const others = entriesOf(request).filter(
    (entry) => entry.issuedAt + LIFETIME_SECONDS >= now && !belongsTo(context, entry, email, now),
  );
  const nonce = randomBytes(12).toString('base64url');
  const fresh: DeviceEntry = { nonce, issuedAt: now, mac: macOf(context, nonce, now, email) };
  const kept = [...others.slice(-(MAX_ENTRIES - 1)), fresh];
  setCookie(
    reply,
    KNOWN_DEVICE_COOKIE,
    kept.map((entry) => `${entry.nonce}.${entry.issuedAt}.${entry.mac}`).join('~'),
    {
      path: '/api/',
      httpOnly: true,
      sameSite: 'lax',
      secure: context.config.publicUrl.startsWith('https:'),
      maxAge: LIFETIME_SECONDS,
    },
  );
}
