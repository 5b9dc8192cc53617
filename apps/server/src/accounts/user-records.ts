import { and, eq, inArray, isNotNull, isNull, users, type Database, type UserRow } from '@meetcast/db';

/**
 * The writes other features make on `users`, which accounts/ owns (ADR 013, lint rule
 * `meetcast/table-owners`). Each takes the database or the caller's transaction, so that a change
 * the admin area audits, or account deletion, stays one atomic step. The sign-up, confirmation and
 * reset flows write in account-service.ts.
 */

/** The settings of the profile page; a field left out keeps its value. */
export type UserSettings = Partial<
  Pick<typeof users.$inferInsert, 'username' | 'language' | 'timeZone' | 'defaultMeetingPassword' | 'reminderMinutes'>
>;

export async function updateUserSettings(db: Database, userId: number, settings: UserSettings) {
  await db
    .update(users)
    .set({ ...settings, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** Throws the database's unique violation when another account holds the address. */
export async function setEmail(db: Database, userId: number, email: string) {
  await db.update(users).set({ email, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function setPasswordHash(db: Database, userId: number, passwordHash: string) {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** Sets or (with null) removes the avatar; returns the row as it is now. */
export async function setAvatar(db: Database, userId: number, avatar: string | null): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ avatar, updatedAt: new Date() }).where(eq(users.id, userId)).returning();
  return row;
}

/**
 * An external provider proved the address of a sign-up nobody confirmed: the account is confirmed
 * under the provider's name and loses its password, which whoever started the sign-up chose.
 */
export async function claimUnconfirmedAccount(
  db: Database,
  userId: number,
  username: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({
      passwordHash: null,
      emailVerifiedAt: new Date(),
      username,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

/**
 * Gives the account this feed token unless it has one already (a concurrent first request may have
 * set it); returns the token when this call set it.
 */
export async function claimCalendarFeedToken(db: Database, userId: number, token: string) {
  const [claimed] = await db
    .update(users)
    .set({ calendarFeedToken: token })
    .where(and(eq(users.id, userId), isNull(users.calendarFeedToken)))
    .returning({ token: users.calendarFeedToken });
  return claimed?.token;
}

/** Replaces the feed token: the old feed address stops working. */
export async function setCalendarFeedToken(db: Database, userId: number, token: string) {
  await db.update(users).set({ calendarFeedToken: token }).where(eq(users.id, userId));
}

export async function setUserRole(db: Database, userId: number, roleId: number) {
  await db.update(users).set({ roleId, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** Disables the accounts among `ids` that are enabled; returns those it disabled. */
export async function disableUsers(db: Database, ids: number[]) {
  const now = new Date();
  return db
    .update(users)
    .set({ disabledAt: now, updatedAt: now })
    .where(and(inArray(users.id, ids), isNull(users.disabledAt)))
    .returning({ id: users.id, email: users.email });
}

/** Enables the accounts among `ids` that are disabled; returns those it enabled. */
export async function enableUsers(db: Database, ids: number[]) {
  return db
    .update(users)
    .set({ disabledAt: null, updatedAt: new Date() })
    .where(and(inArray(users.id, ids), isNotNull(users.disabledAt)))
    .returning({ id: users.id, email: users.email });
}

/** Deletes these accounts (the database cascades to their rows); returns those that existed. */
export async function deleteUsers(db: Database, ids: number[]) {
  return db
    .delete(users)
    .where(inArray(users.id, ids))
    .returning({ id: users.id, email: users.email, username: users.username });
}
