import { randomBytes } from 'node:crypto';
import { and, eq, externalLoginAttempts, gt, lt, type Database } from '@meetcast/db';
import * as client from 'openid-client';
import type { PendingAuthorization } from './provider-client.js';
import { sha256 } from '../platform/hashing.js';

/** How long a started sign-in may take at the provider before it has to be started again. */
export const ATTEMPT_LIFETIME_SECONDS = 10 * 60;
/** The httpOnly cookie that binds a pending sign-in to the browser that started it. */
export const ATTEMPT_COOKIE = 'meetcast_oidc';

/**
 * Stores a new pending sign-in (PKCE verifier, state, nonce) and returns it with the random handle
 * that goes into the cookie. Expired attempts are swept on the way.
 */
export async function createAttempt(db: Database): Promise<PendingAuthorization & { handle: string }> {
  await db.delete(externalLoginAttempts).where(lt(externalLoginAttempts.expiresAt, new Date()));
  const handle = randomBytes(32).toString('base64url');
  const pending = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
  await db.insert(externalLoginAttempts).values({
    handleHash: sha256(handle),
    ...pending,
    expiresAt: new Date(Date.now() + ATTEMPT_LIFETIME_SECONDS * 1000),
  });
  return { handle, ...pending };
}

/** Takes the pending sign-in out of the table: each one can be used once, and only before it expires. */
export async function consumeAttempt(db: Database, handle: string | undefined) {
  if (!handle || handle.length > 100) return undefined;
  const [row] = await db
    .delete(externalLoginAttempts)
    .where(and(eq(externalLoginAttempts.handleHash, sha256(handle)), gt(externalLoginAttempts.expiresAt, new Date())))
    .returning();
  return row;
}
