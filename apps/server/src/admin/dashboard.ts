import type { AdminDashboard, WeekCount } from '@meetcast/contracts';
import {
  and,
  channels,
  contactMessages,
  desc,
  eq,
  gte,
  meetingAttendance,
  meetings,
  or,
  sql,
  users,
} from '@meetcast/db';
import type { AppContext } from '../context.js';
import { listAudit } from './audit.js';
import { toEpochSeconds } from '../platform/time.js';

const WEEKS_CHARTED = 12;
const DAY_MS = 86_400_000;
const LIVE_LISTED = 50;
const AUDIT_SHOWN = 20;

/** Monday 00:00 UTC of the week that holds `now`. */
export function weekStart(now: Date): number {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return day - ((now.getUTCDay() + 6) % 7) * DAY_MS;
}

function weekSeries(firstWeek: number, rows: { week: number; total: number }[]): WeekCount[] {
  const byWeek = new Map(rows.map((row) => [Math.round(Number(row.week)) * 1000, Number(row.total)]));
  return Array.from({ length: WEEKS_CHARTED }, (_, index) => {
    const week = firstWeek + index * 7 * DAY_MS;
    return { week_start: week / 1000, count: byWeek.get(week) ?? 0 };
  });
}

/** A meeting is live when its state says so or somebody is in its room. */
export const liveCondition = or(
  eq(meetings.state, 'live'),
  sql`exists (select 1 from ${meetingAttendance} where ${meetingAttendance.meetingId} = ${meetings.id} and ${meetingAttendance.leftAt} is null)`,
);

export async function loadDashboard(context: AppContext, now = new Date()): Promise<AdminDashboard> {
  const db = context.db;
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const firstWeek = new Date(weekStart(now) - (WEEKS_CHARTED - 1) * 7 * DAY_MS);
  const weekOf = (column: typeof users.createdAt | typeof meetings.createdAt) =>
    sql<number>`extract(epoch from date_trunc('week', ${column} at time zone 'UTC'))::float8`;
  const participants = sql<number>`(select count(*)::int from ${meetingAttendance} where ${meetingAttendance.meetingId} = ${meetings.id} and ${meetingAttendance.leftAt} is null)`;

  const [userFigures, meetingFigures, minutes, channelFigures, waiting, signups, created, live, audit] =
    await Promise.all([
      db
        .select({
          total: sql<number>`count(*)::int`,
          fresh: sql<number>`(count(*) filter (where ${users.createdAt} >= ${weekAgo}))::int`,
          disabled: sql<number>`(count(*) filter (where ${users.disabledAt} is not null))::int`,
        })
        .from(users),
      db
        .select({
          scheduled: sql<number>`(count(*) filter (where ${meetings.state} = 'scheduled' and (${meetings.endTime} > ${now} or ${meetings.repeat} <> 0)))::int`,
          live: sql<number>`(count(*) filter (where ${liveCondition}))::int`,
        })
        .from(meetings),
      // Person-minutes spent in meetings since the first of the month (UTC); open stays count up to now.
      db
        .select({
          seconds: sql<number>`coalesce(sum(extract(epoch from (least(coalesce(${meetingAttendance.leftAt}, ${now}), ${now}) - greatest(${meetingAttendance.joinedAt}, ${monthStart})))), 0)::float8`,
        })
        .from(meetingAttendance)
        .where(
          and(
            sql`${meetingAttendance.joinedAt} < ${now}`,
            sql`coalesce(${meetingAttendance.leftAt}, ${now}) > ${monthStart}`,
          ),
        ),
      db
        .select({
          total: sql<number>`count(*)::int`,
          hidden: sql<number>`(count(*) filter (where ${channels.hiddenAt} is not null))::int`,
        })
        .from(channels),
      db
        .select({ total: sql<number>`count(*)::int` })
        .from(contactMessages)
        .where(eq(contactMessages.status, 'new')),
      db
        .select({ week: weekOf(users.createdAt), total: sql<number>`count(*)::int` })
        .from(users)
        .where(gte(users.createdAt, firstWeek))
        .groupBy(sql`1`),
      db
        .select({ week: weekOf(meetings.createdAt), total: sql<number>`count(*)::int` })
        .from(meetings)
        .where(gte(meetings.createdAt, firstWeek))
        .groupBy(sql`1`),
      db
        .select({
          meeting: meetings,
          host: { id: users.id, username: users.username, email: users.email },
          participants,
        })
        .from(meetings)
        .innerJoin(users, eq(users.id, meetings.hostId))
        .where(liveCondition)
        .orderBy(desc(meetings.startedAt), desc(meetings.id))
        .limit(LIVE_LISTED),
      listAudit(context, { limit: AUDIT_SHOWN, offset: 0 }),
    ]);

  return {
    users: {
      total: userFigures[0]?.total ?? 0,
      new_this_week: userFigures[0]?.fresh ?? 0,
      disabled: userFigures[0]?.disabled ?? 0,
    },
    meetings: {
      scheduled: meetingFigures[0]?.scheduled ?? 0,
      live_now: meetingFigures[0]?.live ?? 0,
      minutes_this_month: Math.floor(Math.max(0, Number(minutes[0]?.seconds ?? 0)) / 60),
    },
    channels: { total: channelFigures[0]?.total ?? 0, hidden: channelFigures[0]?.hidden ?? 0 },
    contact_messages: { waiting: waiting[0]?.total ?? 0 },
    signups_per_week: weekSeries(firstWeek.getTime(), signups),
    meetings_per_week: weekSeries(firstWeek.getTime(), created),
    live_meetings: live.map(({ meeting, host, participants: present }) => ({
      id: meeting.id,
      name: meeting.name,
      url_slug: meeting.slug,
      host,
      participants: present,
      started_at: meeting.startedAt ? toEpochSeconds(meeting.startedAt) : null,
    })),
    audit_log: audit.rows,
  };
}
