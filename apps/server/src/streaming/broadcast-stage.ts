import { and, eq, gt, ne, roomParticipants, type BroadcastRow, type MeetingRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { notFound } from '../http/app-error.js';
import { setOnStage } from './state/broadcast-state.js';

/**
 * Who is on a broadcast when it starts (ADR 045): the people in the room then, except those who came
 * through the backstage link. Whoever joins later starts backstage.
 */
export async function stageAtStart(context: AppContext, meetingId: number): Promise<string[]> {
  const rows = await context.db
    .select({ id: roomParticipants.id })
    .from(roomParticipants)
    .where(
      and(
        eq(roomParticipants.meetingId, meetingId),
        eq(roomParticipants.state, 'admitted'),
        ne(roomParticipants.role, 'composer'),
        eq(roomParticipants.backstage, false),
        gt(roomParticipants.expiresAt, new Date()),
      ),
    );
  return rows.map((row) => row.id);
}

/** Puts someone in the room on the running broadcast, or backstage (the caller checked it is a manager's call). */
export async function setStage(
  context: AppContext,
  { broadcast, meeting }: { broadcast: BroadcastRow; meeting: MeetingRow },
  input: { participantId: string; onStage: boolean },
) {
  // Only someone in this meeting's room: an id from another meeting, the lobby or the composer is nobody here.
  const [person] = await context.db
    .select({ id: roomParticipants.id })
    .from(roomParticipants)
    .where(
      and(
        eq(roomParticipants.id, input.participantId),
        eq(roomParticipants.meetingId, meeting.id),
        eq(roomParticipants.state, 'admitted'),
        ne(roomParticipants.role, 'composer'),
      ),
    );
  if (!person) throw notFound('broadcasts.stage_person_unknown');
  const updated = await setOnStage(context, broadcast.id, person.id, input.onStage);
  return { broadcast: updated ?? broadcast, meeting };
}
