import { randomBytes, randomInt } from 'node:crypto';
import { sha256 } from '../platform/hashing.js';

/** 256 random bits, URL-safe. Only its SHA-256 is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function newSixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Codes are hashed with their owner so that equal codes of two people differ in the table. */
export function hashCode(userId: number, code: string): string {
  return sha256(`${userId}:${code}`);
}
