import {
  PUBLIC_STATE_ORDER,
  publicBroadcastState,
  type Broadcast,
  type LatestBroadcastState,
} from '@meetcast/contracts';
import { and, asc, desc, eq, gt, inArray, liveBroadcasts, lte, meetings, or, type MeetingRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { toEpochSeconds } from '../platform/time.js';

const BROADCAST_LIST_LIMIT = 20;

/** What a meeting's latest broadcast says about it: the facts of ADR 022's one derivation. */
export type LatestBroadcastFacts = { state: LatestBroadcastState; hasRecording: boolean };
const NEVER_BROADCAST: LatestBroadcastFacts = { state: 'none', hasRecording: false };

/** The latest broadcast of each of these meetings, in one query. */
export async function latestBroadcastFacts(context: AppContext, meetingIds: number[]) {
  const facts = new Map<number, LatestBroadcastFacts>();
  if (meetingIds.length === 0) return facts;
  const rows = await context.db
    .selectDistinctOn([liveBroadcasts.meetingId], {
      meetingId: liveBroadcasts.meetingId,
      state: liveBroadcasts.state,
      recordingFile: liveBroadcasts.recordingFile,
      recordingSeconds: liveBroadcasts.recordingSeconds,
    })
    .from(liveBroadcasts)
    // A rehearsal (ADR 047) is nobody's to see here: the broadcast before it, or none.
    .where(and(inArray(liveBroadcasts.meetingId, meetingIds), eq(liveBroadcasts.rehearsal, false)))
    .orderBy(liveBroadcasts.meetingId, desc(liveBroadcasts.id));
  for (const row of rows) {
    facts.set(row.meetingId, { state: row.state, hasRecording: !!row.recordingFile && !!row.recordingSeconds });
  }
  return facts;
}

export function toBroadcastDto(meeting: MeetingRow, latest: LatestBroadcastFacts = NEVER_BROADCAST): Broadcast {
  const scheduleOver = meeting.endTime <= new Date();
  const hasEnded = meeting.state === 'ended' || (meeting.state === 'scheduled' && scheduleOver);
  return {
    id: meeting.id,
    name: meeting.name,
    url_slug: meeting.slug,
    description: meeting.description,
    start_time: toEpochSeconds(meeting.startTime),
    end_time: toEpochSeconds(meeting.endTime),
    state: meeting.state === 'live' ? 'live' : hasEnded ? 'ended' : 'scheduled',
    started_at: meeting.startedAt ? toEpochSeconds(meeting.startedAt) : null,
    ended_at: meeting.endedAt ? toEpochSeconds(meeting.endedAt) : null,
    public_state: publicBroadcastState({
      broadcast: latest.state,
      hasRecording: latest.hasRecording,
      meeting: meeting.state === 'live' ? 'live' : meeting.state === 'scheduled' ? 'scheduled' : 'ended',
      scheduleOver,
    }),
  };
}

/** One meeting as the public sees it, with its latest broadcast read. */
export async function broadcastDto(context: AppContext, meeting: MeetingRow) {
  const facts = await latestBroadcastFacts(context, [meeting.id]);
  return toBroadcastDto(meeting, facts.get(meeting.id));
}

/**
 * A channel's meetings sorted by what the public sees (ADR 022): on air, then upcoming, then past with
 * their replays. A broadcast that ended is past at once, even while its host is still in the room or
 * the meeting's time has not run out.
 */
export async function channelBroadcasts(context: AppContext, channelId: number, shown: ReturnType<typeof and>) {
  const now = new Date();
  const ofChannel = and(eq(meetings.channelId, channelId), shown);
  const current = await context.db
    .select()
    .from(meetings)
    .where(
      and(ofChannel, or(eq(meetings.state, 'live'), and(eq(meetings.state, 'scheduled'), gt(meetings.endTime, now)))),
    )
    .orderBy(asc(meetings.startTime))
    .limit(BROADCAST_LIST_LIMIT * 2);
  const finished = await context.db
    .select()
    .from(meetings)
    .where(
      and(ofChannel, or(eq(meetings.state, 'ended'), and(eq(meetings.state, 'scheduled'), lte(meetings.endTime, now)))),
    )
    .orderBy(desc(meetings.startTime))
    .limit(BROADCAST_LIST_LIMIT);
  const all = [...current, ...finished];
  const facts = await latestBroadcastFacts(
    context,
    all.map((meeting) => meeting.id),
  );
  const dtos = all.map((meeting) => toBroadcastDto(meeting, facts.get(meeting.id)));
  const live = dtos.filter((item) => item.public_state === 'live');
  const upcoming = dtos.filter((item) => item.public_state === 'upcoming').slice(0, BROADCAST_LIST_LIMIT);
  const past = dtos
    .filter((item) => PUBLIC_STATE_ORDER[item.public_state] === PUBLIC_STATE_ORDER.replay)
    .sort((a, b) => (b.started_at ?? b.start_time) - (a.started_at ?? a.start_time))
    .slice(0, BROADCAST_LIST_LIMIT);
  live.sort((a, b) => (b.started_at ?? 0) - (a.started_at ?? 0));
  return { live: live[0] ?? null, upcoming, past };
}
