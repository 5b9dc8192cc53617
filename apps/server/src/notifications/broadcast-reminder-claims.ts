import { and, broadcastReminders, eq, inArray, isNull, users, type Database } from '@meetcast/db';

/**
 * The people who asked to be told that this meeting went live and were not told yet, claimed in one
 * UPDATE: whichever process runs it first gets them, every other gets nobody (told exactly once).
 */
export async function claimBroadcastReminders(db: Database, meetingId: number) {
  const claimed = await db
    .update(broadcastReminders)
    .set({ notifiedAt: new Date() })
    .where(and(eq(broadcastReminders.meetingId, meetingId), isNull(broadcastReminders.notifiedAt)))
    .returning({ userId: broadcastReminders.userId });
  if (claimed.length === 0) return [];
  return db
    .select({ id: users.id, email: users.email, language: users.language, timeZone: users.timeZone })
    .from(users)
    .where(
      and(
        inArray(
          users.id,
          claimed.map((row) => row.userId),
        ),
        isNull(users.disabledAt),
      ),
    );
}
