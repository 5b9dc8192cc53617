import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. @node-rs/argon2 defaults to argon2id.
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
// A hash of a random password, verified against when the account does not exist, so that
// "no such account" takes as long as "wrong password".
const DECOY_HASH = hash(randomBytes(16).toString('hex'), ARGON2_OPTIONS);

/** Account and meeting passwords are stored only as this argon2id hash. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash ?? (await DECOY_HASH), password);
  } catch {
    return false;
  }
}

/** For secrets that are random already (tokens, codes): stored and looked up by this digest. */
export function sha256(value: string): string {
  return digest('sha256', value, 'hex');
}

/** Two hex digests compared in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
