import { createHmac } from 'node:crypto';

/**
 * How long a TURN credential handed to a page works. coturn checks it on every authenticated request
 * of an allocation (refreshes, permissions), so it must outlast a long meeting or broadcast; a page
 * that reconnects gets a fresh one with its join.
 */
export const TURN_CREDENTIAL_SECONDS = 24 * 60 * 60;

export interface TurnCredential {
  username: string;
  credential: string;
}

/**
 * The TURN REST API's time-limited credential (coturn's `use-auth-secret`): the username is the
 * expiry in Unix seconds and whom it was made for, the password the base64 HMAC-SHA1 of that username
 * under the secret shared with coturn. coturn refuses it once the expiry has passed.
 */
export function turnCredential(
  secret: string,
  userId: string,
  now: Date = new Date(),
  lifetimeSeconds = TURN_CREDENTIAL_SECONDS,
): TurnCredential {
  const expiry = Math.floor(now.getTime() / 1000) + lifetimeSeconds;
  // A colon would end the expiry part early: coturn reads the username up to its first one.
  const username = `${expiry}:${userId.replaceAll(':', '_')}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}
