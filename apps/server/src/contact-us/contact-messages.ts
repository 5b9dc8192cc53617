import { contactMessages, eq, or, type Database } from '@meetcast/db';

/**
 * The writes on `contact_messages`, which contact-us/ owns (ADR 013, lint rule
 * `meetcast/table-owners`): the form stores a message, the admin area and account deletion call
 * these. Each takes the database or the caller's transaction, so that a change and its audit entry,
 * or an account's deletion, stay one atomic step.
 */

export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type ContactMessageStatus = ContactMessageRow['status'];

/** Returns the new message's id. */
export async function storeContactMessage(
  db: Database,
  message: Pick<typeof contactMessages.$inferInsert, 'userId' | 'name' | 'email' | 'subject' | 'message'>,
) {
  const [stored] = await db.insert(contactMessages).values(message).returning({ id: contactMessages.id });
  return stored;
}

/** Returns the message as it is now, or undefined when there is none with this id. */
export async function setContactMessageStatus(
  db: Database,
  id: number,
  status: ContactMessageStatus,
): Promise<ContactMessageRow | undefined> {
  const [row] = await db.update(contactMessages).set({ status }).where(eq(contactMessages.id, id)).returning();
  return row;
}

/** Returns the deleted message, or undefined when there was none with this id. */
export async function deleteContactMessage(db: Database, id: number): Promise<ContactMessageRow | undefined> {
  const [row] = await db.delete(contactMessages).where(eq(contactMessages.id, id)).returning();
  return row;
}

/** A person's messages go with their account: those sent signed in and those sent from its address. */
export async function deleteContactMessagesOf(db: Database, person: { userId: number; email: string }) {
  await db
    .delete(contactMessages)
    .where(or(eq(contactMessages.userId, person.userId), eq(contactMessages.email, person.email)));
}
