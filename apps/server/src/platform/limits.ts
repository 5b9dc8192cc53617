import { tooManyRequests } from '../http/app-error.js';
import type { RateLimiter, RateLimitRule } from './rate-limiter.js';

export const RATE_LIMITS = {
  loginByAddress: { name: 'login-address', limit: 30, windowSeconds: 300 },
  /** Guessing one account's password from one address (ADR 009). */
  loginByAccountAndAddress: { name: 'login-account-address', limit: 10, windowSeconds: 900 },
  /** Guessing one account's password from many addresses: past it, the account is slowed, not shut. */
  loginByAccount: { name: 'login-account', limit: 100, windowSeconds: 3600 },
  /** Past the account's ceiling, one attempt every half minute still goes through (ADR 009). */
  loginByAccountTrickle: { name: 'login-account-trickle', limit: 1, windowSeconds: 30 },
  /** A browser that signed in to the account before, in place of the address and account counters. */
  loginByKnownDevice: { name: 'login-device', limit: 10, windowSeconds: 900 },
  signupByAddress: { name: 'signup-address', limit: 10, windowSeconds: 3600 },
  signupByAccount: { name: 'signup-account', limit: 5, windowSeconds: 3600 },
  codeByAddress: { name: 'code-address', limit: 30, windowSeconds: 900 },
  codeByAccount: { name: 'code-account', limit: 10, windowSeconds: 900 },
  resetByAddress: { name: 'reset-address', limit: 10, windowSeconds: 3600 },
  resetByAccount: { name: 'reset-account', limit: 5, windowSeconds: 3600 },
  externalLoginByAddress: { name: 'external-login-address', limit: 60, windowSeconds: 300 },
  /** Creating and changing meetings (each may mail up to 100 invitees). */
  meetingWriteByAccount: { name: 'meeting-write', limit: 60, windowSeconds: 3600 },
  /** The slug is checked on every keystroke of the meeting dialogs. */
  slugCheckByAccount: { name: 'slug-check', limit: 600, windowSeconds: 600 },
} satisfies Record<string, RateLimitRule>;

/** Counts one attempt under each rule and refuses with 429 when any limit is exceeded. */
export async function enforceLimits({ limiter }: { limiter: RateLimiter }, checks: [RateLimitRule, string][]) {
  for (const [rule, key] of checks) {
    const verdict = await limiter.hit(rule, key);
    if (!verdict.allowed) throw tooManyRequests(verdict.retryAfterSeconds);
  }
}
