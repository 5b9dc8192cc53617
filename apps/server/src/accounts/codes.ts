import { and, desc, eq, gt, isNull, verificationCodes, type CodePurpose, type Database } from '@meetcast/db';
import { hashCode, newSixDigitCode, sameHash } from './secrets.js';

export const CODE_LIFETIME_MINUTES = 15;
const MAX_ATTEMPTS = 5;

/** Issues a fresh code and retires the ones before it. */
export async function issueCode(db: Database, userId: number, purpose: CodePurpose, newEmail?: string) {
  const code = newSixDigitCode();
  await db
    .update(verificationCodes)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(verificationCodes.userId, userId),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.consumedAt),
      ),
    );
  await db.insert(verificationCodes).values({
    userId,
    purpose,
    codeHash: hashCode(userId, code),
    newEmail: newEmail ?? null,
    expiresAt: new Date(Date.now() + CODE_LIFETIME_MINUTES * 60_000),
  });
  return code;
}

/** Consumes the live code if it matches; each wrong try counts, and five end the code. */
export async function consumeCode(db: Database, userId: number, purpose: CodePurpose, code: string) {
  const [live] = await db
    .select()
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
  if (!live || live.attempts >= MAX_ATTEMPTS) return undefined;
  if (!sameHash(live.codeHash, hashCode(userId, code))) {
    await db
      .update(verificationCodes)
      .set({ attempts: live.attempts + 1 })
      .where(eq(verificationCodes.id, live.id));
    return undefined;
  }
  const [consumed] = await db
    .update(verificationCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(verificationCodes.id, live.id), isNull(verificationCodes.consumedAt)))
    .returning();
  return consumed;
}
