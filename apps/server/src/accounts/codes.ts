import {
  and,
  desc,
  eq,
  gt,
  isNull,
  lt,
  sql,
  users,
  verificationCodes,
  type CodePurpose,
  type Database,
} from '@meetcast/db';
import { hashCode, newSixDigitCode } from './secrets.js';
import { sameHash } from '../platform/hashing.js';

export const CODE_LIFETIME_MINUTES = 15;
const MAX_ATTEMPTS = 5;

/**
 * Issues a fresh code and retires the ones before it. The account's row is locked while it does, so
 * requests at the same moment take turns and exactly one code per purpose stays live.
 */
export async function issueCode(db: Database, userId: number, purpose: CodePurpose, newEmail?: string) {
  const code = newSixDigitCode();
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    await tx
      .update(verificationCodes)
      .set({ consumedAt: new Date() })
      .where(
        and(
          eq(verificationCodes.userId, userId),
          eq(verificationCodes.purpose, purpose),
          isNull(verificationCodes.consumedAt),
        ),
      );
    await tx.insert(verificationCodes).values({
      userId,
      purpose,
      codeHash: hashCode(userId, code),
      newEmail: newEmail ?? null,
      expiresAt: new Date(Date.now() + CODE_LIFETIME_MINUTES * 60_000),
    });
  });
  return code;
}

/**
 * Consumes the live code if it matches. Every try counts, and is counted by the database itself
 * (`attempts = attempts + 1` only while below the limit), so tries sent at once cannot share a
 * count: after five, right or wrong, the code is spent.
 */
export async function consumeCode(db: Database, userId: number, purpose: CodePurpose, code: string) {
  const [live] = await db
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.userId, userId),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  if (!live) return undefined;
  const [counted] = await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(
      and(
        eq(verificationCodes.id, live.id),
        isNull(verificationCodes.consumedAt),
        lt(verificationCodes.attempts, MAX_ATTEMPTS),
      ),
    )
    .returning();
  if (!counted || !sameHash(counted.codeHash, hashCode(userId, code))) return undefined;
  const [consumed] = await db
    .update(verificationCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(verificationCodes.id, counted.id), isNull(verificationCodes.consumedAt)))
    .returning();
  return consumed;
}
