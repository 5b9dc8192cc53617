import { and, eq, inArray, meetingInvitees } from '@meetcast/db';
import type { Executor } from './meeting-repository.js';

/** Someone invited to a meeting: an address, and their account when they have one. */
export interface InviteeRecord {
  email: string;
  userId: number | null;
}

/**
 * The one writer of `meeting_invitees` (ADR 013), the meeting's guest list: the meetings feature
 * (the schedule dialog), contacts (Call now, Invite) and account deletion change it only here.
 */
export class InviteeRepository {
  constructor(private readonly db: Executor) {}

  async list(meetingId: number): Promise<InviteeRecord[]> {
    return this.db
      .select({ email: meetingInvitees.email, userId: meetingInvitees.userId })
      .from(meetingInvitees)
      .where(eq(meetingInvitees.meetingId, meetingId))
      .orderBy(meetingInvitees.id);
  }

  /** Adds these invitees; those already on the list are left as they are. Returns how many were new. */
  async add(meetingId: number, invitees: InviteeRecord[]): Promise<number> {
    if (invitees.length === 0) return 0;
    const inserted = await this.db
      .insert(meetingInvitees)
      .values(invitees.map((invitee) => ({ meetingId, email: invitee.email, userId: invitee.userId })))
      .onConflictDoNothing()
      .returning({ id: meetingInvitees.id });
    return inserted.length;
  }

  async remove(meetingId: number, emails: string[]): Promise<void> {
    if (emails.length === 0) return;
    await this.db
      .delete(meetingInvitees)
      .where(and(eq(meetingInvitees.meetingId, meetingId), inArray(meetingInvitees.email, emails)));
  }

  /** Takes an address off every guest list (its account is being deleted). */
  async removeAddressEverywhere(email: string): Promise<void> {
    await this.db.delete(meetingInvitees).where(eq(meetingInvitees.email, email));
  }
}
