import type { BroadcastPlan as BroadcastPlanView, DestinationRequest } from '@meetcast/contracts';
import {
  and,
  broadcastPlans,
  eq,
  gt,
  inArray,
  isNull,
  lte,
  meetingAttendance,
  meetings,
  sql,
  streamConnections,
  users,
  type MeetingRow,
  type UserRow,
} from '@meetcast/db';
import type { AppContext } from '../context.js';
import { conflict, gone } from '../http/app-error.js';
import { requireManager, requireMeeting, requireUsableConnections, startBroadcast } from './broadcast-service.js';
import type { ComposerCapacity } from './broadcast-limits.js';

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

/** The plan of a meeting the caller manages, with its connections' names and statuses; null when there is none. */
export async function getBroadcastPlan(context: AppContext, user: UserRow, meetId: string) {
  const meeting = await requireMeeting(context, meetId);
  await requireManager(context, meeting, user);
  return planView(context, meeting);
}

/**
 * Changes or removes (nothing planned) a plan before it starts: the host of a scheduled channel
 * broadcast changes their mind on My Channel. A plan that has started, or an ended meeting, is refused.
 */
export async function replaceBroadcastPlan(context: AppContext, user: UserRow, meetId: string, plan: BroadcastPlan) {
  const meeting = await requireMeeting(context, meetId);
  await requireManager(context, meeting, user);
  if (meeting.state === 'ended' || meeting.state === 'cancelled') throw gone('room.ended');
  const [current] = await context.db.select().from(broadcastPlans).where(eq(broadcastPlans.meetingId, meeting.id));
  if (current?.startedAt) throw conflict('broadcasts.plan_started');
  // The plan goes live as the host: their connections, whoever (a co-host) edits it.
  const [host] = await context.db.select().from(users).where(eq(users.id, meeting.hostId));
  if (!host) throw gone('room.ended');
  await checkBroadcastPlan(context, host, plan);
  if (plan.destinations.length === 0 && !plan.record) {
    await context.db
      .delete(broadcastPlans)
      .where(and(eq(broadcastPlans.meetingId, meeting.id), isNull(broadcastPlans.startedAt)));
  } else {
    await saveBroadcastPlan(context, meeting, plan);
  }
  return planView(context, meeting);
}

async function planView(context: AppContext, meeting: MeetingRow): Promise<BroadcastPlanView | null> {
  const [row] = await context.db.select().from(broadcastPlans).where(eq(broadcastPlans.meetingId, meeting.id));
  if (!row) return null;
  const planned = row.destinations as DestinationRequest[];
  const ids = planned.map((destination) => destination.connection_id);
  const connections =
    ids.length === 0
      ? []
      : await context.db
          .select()
          .from(streamConnections)
          .where(and(inArray(streamConnections.id, ids), eq(streamConnections.userId, meeting.hostId)));
  // A connection removed since has nothing left to show; it is skipped when the plan starts too.
  const destinations = planned.flatMap((destination) => {
    const connection = connections.find((found) => found.id === destination.connection_id);
    return connection
      ? [{ ...destination, platform: connection.platform, name: connection.name, status: connection.status }]
      : [];
  });
  return { destinations, record: row.record, started: row.startedAt !== null };
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
