import type { DestinationRequest } from '@meetcast/contracts';
import {
  and,
  broadcastPlans,
  eq,
  gt,
  isNull,
  lte,
  meetingAttendance,
  meetings,
  sql,
  streamConnections,
  users,
  type MeetingRow,
} from '@meetcast/db';
import type { UserRow } from '../accounts/user-dto.js';
import type { AppContext } from '../context.js';
import { requireUsableConnections, startBroadcast, type ComposerCapacity } from './broadcast-service.js';

export interface BroadcastPlan {
  destinations: DestinationRequest[];
  record: boolean;
}

/** Refuses (400) a plan naming a connection that is not the host's or not usable, before anything is stored. */
export async function checkBroadcastPlan(context: AppContext, host: UserRow, plan: BroadcastPlan) {
  await requireUsableConnections(context, host, plan.destinations);
}

/** Keeps the go-live chosen when a channel broadcast was scheduled; an empty plan keeps nothing. */
export async function saveBroadcastPlan(context: AppContext, meeting: MeetingRow, plan: BroadcastPlan) {
  if (plan.destinations.length === 0 && !plan.record) return;
  await context.db
    .insert(broadcastPlans)
    .values({ meetingId: meeting.id, destinations: plan.destinations, record: plan.record })
    .onConflictDoUpdate({
      target: broadcastPlans.meetingId,
      set: { destinations: plan.destinations, record: plan.record, startedAt: null, updatedAt: new Date() },
    });
}

const hostIsInTheRoom = sql`exists (select 1 from ${meetingAttendance} where ${meetingAttendance.meetingId} = ${meetings.id} and ${meetingAttendance.userId} = ${meetings.hostId} and ${meetingAttendance.leftAt} is null)`;

/**
 * Starts the planned broadcasts whose time has come and whose host is in the room, each once: the
 * plan is claimed first, so several server processes never start one twice, and a host who stops it
 * is not overruled. Connections revoked since scheduling are left out; the rest still go live.
 */
export async function startDueBroadcasts(context: AppContext, composers: ComposerCapacity, now = new Date()) {
  const due = await context.db
    .select({ plan: broadcastPlans, meeting: meetings, host: users })
    .from(broadcastPlans)
    .innerJoin(meetings, eq(meetings.id, broadcastPlans.meetingId))
    .innerJoin(users, eq(users.id, meetings.hostId))
    .where(
      and(
        isNull(broadcastPlans.startedAt),
        eq(meetings.state, 'live'),
        lte(meetings.startTime, now),
        gt(meetings.endTime, now),
        hostIsInTheRoom,
      ),
    );
  let started = 0;
  for (const { plan, meeting, host } of due) {
    const [claimed] = await context.db
      .update(broadcastPlans)
      .set({ startedAt: now, updatedAt: now })
      .where(and(eq(broadcastPlans.meetingId, meeting.id), isNull(broadcastPlans.startedAt)))
      .returning();
    if (!claimed) continue;
    const destinations = await stillUsable(context, host, plan.destinations as DestinationRequest[]);
    if (destinations.length === 0 && !plan.record) continue;
    try {
      await startBroadcast(context, composers, { user: host, meetId: meeting.slug, destinations, record: plan.record });
      started++;
    } catch (error) {
      context.log.warn({ err: error, meetingId: meeting.id }, 'a planned broadcast could not start');
    }
  }
  return started;
}

async function stillUsable(context: AppContext, host: UserRow, planned: DestinationRequest[]) {
  if (planned.length === 0) return [];
  const usable = await context.db
    .select({ id: streamConnections.id })
    .from(streamConnections)
    .where(and(eq(streamConnections.userId, host.id), eq(streamConnections.status, 'connected')));
  const ids = new Set(usable.map((row) => row.id));
  return planned.filter((destination) => ids.has(destination.connection_id));
}
