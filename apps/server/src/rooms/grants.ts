import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, meetings, roomParticipants, users, type Database } from '@meetcast/db';
import type { MeetingRow } from '@meetcast/db';
export type { MeetingRow };

/** A grant not used for this long stops working; a connected participant keeps extending it. */
export const GRANT_TTL_MS = 5 * 60 * 1000;

export type ParticipantRow = typeof roomParticipants.$inferSelect;

export const hashGrant = (token: string) => createHash('sha256').update(token).digest('base64url');
export const newParticipantId = () => randomBytes(9).toString('base64url');

export interface NewGrant {
  meetingId: number;
  userId: number | null;
  displayName: string;
  browserHash: string | null;
  addressHash?: string | null;
  role: ParticipantRow['role'];
  state: ParticipantRow['state'];
  /** Came through the backstage link (ADR 045). */
  backstage?: boolean;
}

export async function issueGrant(
  db: Database,
  grant: NewGrant,
): Promise<{ token: string; participant: ParticipantRow }> {
  const token = randomBytes(32).toString('base64url');
  const [participant] = await db
    .insert(roomParticipants)
    .values({
      id: newParticipantId(),
      ...grant,
      grantHash: hashGrant(token),
      expiresAt: new Date(Date.now() + GRANT_TTL_MS),
    })
    .returning();
  if (!participant) throw new Error('grant not stored');
  return { token, participant };
}

/**
 * The participant and meeting a grant names (with the host's name, which the room shows), if it is
 * well-formed, current and not expired.
 */
export async function findGrant(
  db: Database,
  token: unknown,
): Promise<{ participant: ParticipantRow; meeting: MeetingRow; hostName: string | null } | undefined> {
  if (typeof token !== 'string' || token.length < 20 || token.length > 100) return undefined;
  const [row] = await db
    .select({ participant: roomParticipants, meeting: meetings, hostName: users.username })
    .from(roomParticipants)
    .innerJoin(meetings, eq(meetings.id, roomParticipants.meetingId))
    .leftJoin(users, eq(users.id, meetings.hostId))
    .where(and(eq(roomParticipants.grantHash, hashGrant(token)), gt(roomParticipants.expiresAt, new Date())));
  return row;
}

/**
 * The grant's holder, as findGrant, and its life starts again: whoever comes back after a drop (a
 * network change, a laptop asleep, a stalled tab) within the reconnect grace is renewed, not refused.
 * What the room's connection and the media proxy both check a grant with.
 */
export async function renewGrant(db: Database, token: unknown): ReturnType<typeof findGrant> {
  const found = await findGrant(db, token);
  if (found) await extendGrant(db, found.participant.id);
  return found;
}

export async function extendGrant(db: Database, participantId: string): Promise<void> {
  await db
    .update(roomParticipants)
    .set({ expiresAt: new Date(Date.now() + GRANT_TTL_MS) })
    .where(eq(roomParticipants.id, participantId));
}

/**
 * Whether a grant lets its holder see what the room of this meeting sees: only someone admitted to it
 * (the composer too). Someone knocking at the lobby, denied, removed or gone is not inside.
 */
export async function isAdmittedTo(db: Database, token: unknown, meetingId: number): Promise<boolean> {
  if (token === undefined) return false;
  const found = await findGrant(db, token);
  return found?.meeting.id === meetingId && found.participant.state === 'admitted';
}
