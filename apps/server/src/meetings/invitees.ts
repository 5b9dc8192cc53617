import { MAX_INVITEES } from '@meetcast/contracts';
import { and, contacts, eq, inArray, isNull, users, type Database } from '@meetcast/db';
import { badRequest } from '../http/app-error.js';
import { InviteeRepository, type InviteeRecord } from '../meeting-records/invitee-repository.js';

export type ResolvedInvitee = InviteeRecord;

/**
 * Turns the invitee fields into a list: typed addresses plus the host's own contacts (by id, with an
 * address), lower-cased, without duplicates and without the host. Undefined when neither field came.
 */
export async function resolveInvitees(
  db: Database,
  host: { id: number; email: string },
  emails: string[] | undefined,
  contactIds: number[] | undefined,
): Promise<ResolvedInvitee[] | undefined> {
  if (emails === undefined && contactIds === undefined) return undefined;
  const addresses = (emails ?? []).map((email) => email.toLowerCase());
  const ids = [...new Set(contactIds ?? [])];
  if (ids.length > 0) {
    const found = await db
      .select({ id: contacts.id, name: contacts.name, email: contacts.email })
      .from(contacts)
      .where(and(eq(contacts.ownerId, host.id), inArray(contacts.id, ids), isNull(contacts.deletedAt)));
    if (found.length !== ids.length) throw badRequest('meetings.contact_not_found');
    for (const contact of found) {
      const email = contact.email?.trim().toLowerCase();
      if (!email) throw badRequest('meetings.contact_without_email', { name: contact.name });
      addresses.push(email);
    }
  }
  const unique = [...new Set(addresses)].filter((email) => email !== host.email.toLowerCase());
  if (unique.length > MAX_INVITEES) throw badRequest('meetings.too_many_invitees', { count: MAX_INVITEES });
  if (unique.length === 0) return [];
  const accounts = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.email, unique), isNull(users.disabledAt)));
  const byEmail = new Map(accounts.map((account) => [account.email.toLowerCase(), account.id]));
  return unique.map((email) => ({ email, userId: byEmail.get(email) ?? null }));
}

export async function listInvitees(db: Database, meetingId: number): Promise<ResolvedInvitee[]> {
  return new InviteeRepository(db).list(meetingId);
}

/** Makes the stored invitees exactly `wanted`; answers who is new, who stays and who was removed. */
export async function replaceInvitees(db: Database, meetingId: number, wanted: ResolvedInvitee[]) {
  const invitees = new InviteeRepository(db);
  const current = await invitees.list(meetingId);
  const currentEmails = new Set(current.map((invitee) => invitee.email));
  const wantedEmails = new Set(wanted.map((invitee) => invitee.email));
  const added = wanted.filter((invitee) => !currentEmails.has(invitee.email));
  const kept = wanted.filter((invitee) => currentEmails.has(invitee.email));
  const removed = current.filter((invitee) => !wantedEmails.has(invitee.email));
  await invitees.remove(
    meetingId,
    removed.map((invitee) => invitee.email),
  );
  await invitees.add(meetingId, added);
  return { added, kept, removed };
}
