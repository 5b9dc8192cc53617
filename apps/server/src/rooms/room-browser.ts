import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { readCookie, setCookie } from '../http/cookies.js';
import { secretsBoxFor } from '../platform/secrets-box.js';
import { sha256 } from '../platform/hashing.js';

/** The HttpOnly cookie that names a browser to the rooms: issued by the server, signed with its key. */
export const ROOM_BROWSER_COOKIE = 'meetcastBrowser';
const COOKIE_LIFETIME_SECONDS = 400 * 24 * 3600;
const SIGNING_PURPOSE = 'room-browser';

/** Who a join comes from, as far as the server can tell without an account. */
export interface JoinOrigin {
  /** SHA-256 of the browser's identity; the identity itself never leaves the cookie. */
  browserHash: string;
  /** A keyed hash of the address, so the table holds no addresses yet can compare them. */
  addressHash: string;
}

/**
 * The browser's identity from its cookie, or a fresh one set in the answer. The page cannot read,
 * choose or forge it (the `browser_id` field some pages still send is ignored), so a removed guest
 * who asks under a new name, or with a new identity of their own making, is still known.
 */
export function joinOrigin(context: AppContext, request: FastifyRequest, reply: FastifyReply): JoinOrigin {
  const box = secretsBoxFor(context.config);
  const addressHash = box.sign('room-address', request.ip);
  const known = verifiedIdentity(context, readCookie(request, ROOM_BROWSER_COOKIE));
  if (known) return { browserHash: sha256(known), addressHash };
  const fresh = randomBytes(18).toString('base64url');
  setCookie(reply, ROOM_BROWSER_COOKIE, `${fresh}.${box.sign(SIGNING_PURPOSE, fresh)}`, {
    path: '/api/',
    httpOnly: true,
    sameSite: 'lax',
    secure: context.config.publicUrl.startsWith('https:'),
    maxAge: COOKIE_LIFETIME_SECONDS,
  });
  return { browserHash: sha256(fresh), addressHash };
}

function verifiedIdentity(context: AppContext, cookie: string | undefined): string | undefined {
  const [identity, mac, ...rest] = cookie?.split('.') ?? [];
  if (!identity || !mac || rest.length > 0 || !/^[\w-]{24}$/.test(identity)) return undefined;
  const expected = Buffer.from(secretsBoxFor(context.config).sign(SIGNING_PURPOSE, identity));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? identity : undefined;
}
