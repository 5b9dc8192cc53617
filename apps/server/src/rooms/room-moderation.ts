import type { Participant, RoomErrorReason } from '@meetcast/contracts';
import { and, eq, meetings, or, roomParticipants } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import type { ParticipantRow } from './grants.js';

/** What each room socket carries; read across server processes by fetchSockets(). */
export interface RoomSocketData {
  participantId: string;
  meetingId: number;
  admitted: boolean;
  joinedAt: number;
  audio: boolean;
  video: boolean;
  screen: boolean;
  handRaised: boolean;
  /** When the hand went up (epoch ms): the order hosts see the hands in. */
  handRaisedAt: number | null;
  /** The broadcast composer: in the meeting's events, out of its presence, attendance and emptiness. */
  isComposer: boolean;
}

/** A socket that just passed the handshake: nothing on, no hand up, in the room only if admitted. */
export function connectingSocketData(participant: ParticipantRow): RoomSocketData {
  return {
    participantId: participant.id,
    meetingId: participant.meetingId,
    admitted: participant.state === 'admitted',
    joinedAt: Math.floor(Date.now() / 1000),
    audio: false,
    video: false,
    screen: false,
    handRaised: false,
    handRaisedAt: null,
    isComposer: participant.role === 'composer',
  };
}

/** Socket.IO rooms of a meeting: everyone admitted, its hosts, its lobby, and one per participant. */
export const members = (meetingId: number) => `m:${meetingId}`;
export const hosts = (meetingId: number) => `h:${meetingId}`;
export const lobby = (meetingId: number) => `l:${meetingId}`;
export const person = (participantId: string) => `p:${participantId}`;
export const isHostRole = (role: ParticipantRow['role']) => role === 'host' || role === 'cohost';

/** A room message refused for a reason the client is told in its acknowledgement. */
export class Refusal extends Error {
  constructor(readonly reason: RoomErrorReason) {
    super(reason);
  }
}

/** A participant with their meeting, as stored now (a host may have changed either meanwhile). */
export async function participantWithMeeting(context: AppContext, participantId: string) {
  const [row] = await context.db
    .select({ participant: roomParticipants, meeting: meetings })
    .from(roomParticipants)
    .innerJoin(meetings, eq(meetings.id, roomParticipants.meetingId))
    .where(eq(roomParticipants.id, participantId));
  return row;
}

/** A participant as the room shows them: the stored row plus what their socket says right now. */
export function describeParticipant(participant: ParticipantRow, data: RoomSocketData): Participant {
  return {
    id: participant.id,
    display_name: participant.displayName,
    role: participant.role,
    is_guest: participant.userId === null,
    audio: data.audio,
    video: data.video,
    screen: data.screen,
    hand_raised: data.handRaised,
    hand_raised_at: data.handRaised ? data.handRaisedAt : null,
    joined_at: data.joinedAt,
  };
}

/** The participant a host action is aimed at, in the host's own meeting only. */
export async function moderationTarget(context: AppContext, meetingId: number, participantId: string) {
  const [row] = await context.db
    .select()
    .from(roomParticipants)
    .where(and(eq(roomParticipants.id, participantId), eq(roomParticipants.meetingId, meetingId)));
  if (!row) throw new Refusal('not_found');
  return row;
}

/** Removed participants cannot come back with the same grant. */
export async function markRemoved(context: AppContext, participantId: string) {
  await context.db
    .update(roomParticipants)
    .set({ state: 'removed', updatedAt: new Date() })
    .where(eq(roomParticipants.id, participantId));
}

/** Admits or denies someone still waiting; a decision another host already took is left alone. */
export async function decideLobby(context: AppContext, participantId: string, admitted: boolean) {
  const [decided] = await context.db
    .update(roomParticipants)
    .set({ state: admitted ? 'admitted' : 'denied', updatedAt: new Date() })
    .where(and(eq(roomParticipants.id, participantId), eq(roomParticipants.state, 'lobby')))
    .returning();
  if (!admitted || !decided) return;
  // Let back in by the host: an earlier removal of the same account or browser no longer counts.
  const sameAccount = decided.userId ? eq(roomParticipants.userId, decided.userId) : undefined;
  const sameBrowser = decided.browserHash ? eq(roomParticipants.browserHash, decided.browserHash) : undefined;
  if (!sameAccount && !sameBrowser) return;
  await context.db
    .update(roomParticipants)
    .set({ state: 'left', updatedAt: new Date() })
    .where(
      and(
        eq(roomParticipants.meetingId, decided.meetingId),
        eq(roomParticipants.state, 'removed'),
        or(sameAccount, sameBrowser),
      ),
    );
}

export async function promoteToCohost(context: AppContext, participantId: string) {
  await context.db
    .update(roomParticipants)
    .set({ role: 'cohost', updatedAt: new Date() })
    .where(eq(roomParticipants.id, participantId));
}

export async function setRoomLocked(context: AppContext, meetingId: number, locked: boolean) {
  await new MeetingRepository(context.db).setLocked(meetingId, locked);
}

/** At most 20 chat messages or reactions per 10 seconds and participant. */
export class ChatBudget {
  private readonly spent = new Map<string, { count: number; since: number }>();

  spend(participantId: string) {
    const now = Date.now();
    const budget = this.spent.get(participantId);
    if (!budget || now - budget.since > 10_000) {
      this.spent.set(participantId, { count: 1, since: now });
      return;
    }
    budget.count += 1;
    if (budget.count > 20) throw new Refusal('rate_limited');
  }
}
