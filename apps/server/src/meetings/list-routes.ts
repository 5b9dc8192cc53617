import { type AttendanceSummary, type MeetingOccurrence } from '@meetcast/contracts';
import {
  and,
  contacts,
  count,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  meetingAttendance,
  meetings,
  ne,
  or,
  sql,
  type Database,
} from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, success } from '../http/api-route.js';
import { MeetingDetails, loadVisibleMeetings, matchesSearch, type MeetingRow, type Viewer } from './meeting-store.js';
import { isRepeating, type Occurrence } from './occurrences.js';
import { viewerOf } from './routes.js';
import { addWeeks, startOfWeek } from './time-zones.js';
import { toEpochSeconds } from '../platform/time.js';

const DAY_MS = 86_400_000;
/** How far ahead Upcoming Meetings expands repeating meetings, and how many occurrences of one series it lists. */
export const UPCOMING_HORIZON_DAYS = 90;
const RECENT_HORIZON_DAYS = 365;
const OCCURRENCES_PER_SERIES = 50;
const DEFAULT_PAGE_SIZE = 10;
/** Attendance up to this long before an occurrence belongs to it (people join early). */
const EARLY_JOIN_MS = 30 * 60_000;
const LATE_STAY_MS = 6 * 3600_000;

interface Expanded {
  row: MeetingRow;
  occurrence: Occurrence;
}

function byStart(a: Expanded, b: Expanded) {
  return a.occurrence.start.getTime() - b.occurrence.start.getTime() || a.row.id - b.row.id;
}

/** Occurrences not yet over, soonest first, across every meeting the viewer hosts or is invited to. */
export async function upcomingOccurrences(db: Database, viewer: Viewer, now: Date, search?: string) {
  const rows = await loadVisibleMeetings(
    db,
    viewer,
    isNull(meetings.cancelledAt),
    or(ne(meetings.repeat, 0), and(gte(meetings.endTime, now), ne(meetings.state, 'ended'))),
    matchesSearch(search),
  );
  const details = await MeetingDetails.load(db, viewer, rows);
  const horizon = new Date(now.getTime() + UPCOMING_HORIZON_DAYS * DAY_MS);
  const expanded = rows.flatMap((row) =>
    details.occurrences(row, now, horizon, OCCURRENCES_PER_SERIES).map((occurrence) => ({ row, occurrence })),
  );
  return { details, items: expanded.sort(byStart) };
}

function summarize(rows: (typeof meetingAttendance.$inferSelect)[], now: Date): AttendanceSummary | null {
  if (rows.length === 0) return null;
  const joined = Math.min(...rows.map((row) => row.joinedAt.getTime()));
  const isOpen = rows.some((row) => row.leftAt === null);
  const left = isOpen ? undefined : Math.max(...rows.map((row) => row.leftAt?.getTime() ?? 0));
  const participants = new Map<string, { name: string; user_id: number | null }>();
  for (const row of rows) {
    participants.set(row.userId ? `u${row.userId}` : `n${row.displayName}`, {
      name: row.displayName,
      user_id: row.userId,
    });
  }
  return {
    started_at: toEpochSeconds(new Date(joined)),
    ended_at: left === undefined ? null : toEpochSeconds(new Date(left)),
    duration_seconds: Math.max(0, Math.round(((left ?? now.getTime()) - joined) / 1000)),
    participants: [...participants.values()],
  };
}

/** Occurrences that are over, newest first, each with who joined it. */
async function recentOccurrences(db: Database, viewer: Viewer, now: Date, search?: string) {
  const from = new Date(now.getTime() - RECENT_HORIZON_DAYS * DAY_MS);
  const rows = await loadVisibleMeetings(db, viewer, lt(meetings.startTime, now), matchesSearch(search));
  const details = await MeetingDetails.load(db, viewer, rows);
  const attendance = rows.length
    ? await db
        .select()
        .from(meetingAttendance)
        .where(
          and(
            inArray(
              meetingAttendance.meetingId,
              rows.map((row) => row.id),
            ),
            gte(meetingAttendance.joinedAt, new Date(from.getTime() - DAY_MS)),
          ),
        )
    : [];
  const items: MeetingOccurrence[] = [];
  for (const row of rows) {
    const series = details.occurrences(row, from, now);
    const attended = attendance.filter((entry) => entry.meetingId === row.id);
    const isEndedEarly = !isRepeating(row.repeat) && row.state === 'ended';
    series.forEach((occurrence, index) => {
      if (occurrence.end > now && !isEndedEarly) return;
      const next = series[index + 1];
      // A one-off meeting owns all its attendance; an occurrence owns what falls between it and the next.
      const mine = isRepeating(row.repeat)
        ? attended.filter((entry) => {
            const at = entry.joinedAt.getTime();
            const windowEnd = Math.min(
              occurrence.end.getTime() + LATE_STAY_MS,
              next ? next.start.getTime() - EARLY_JOIN_MS : Infinity,
            );
            return at >= occurrence.start.getTime() - EARLY_JOIN_MS && at < windowEnd;
          })
        : attended;
      items.push(details.occurrence(row, occurrence, summarize(mine, now)));
    });
  }
  // Newest first; at most OCCURRENCES_PER_SERIES of one series.
  items.sort((a, b) => b.occurrence_start - a.occurrence_start || b.id - a.id);
  const perSeries = new Map<number, number>();
  return items.filter((item) => {
    const seen = (perSeries.get(item.id) ?? 0) + 1;
    perSeries.set(item.id, seen);
    return seen <= OCCURRENCES_PER_SERIES;
  });
}

function page<T>(items: T[], input: { page?: number; per_page?: number }) {
  const perPage = input.per_page ?? DEFAULT_PAGE_SIZE;
  const pageNumber = input.page ?? 1;
  return {
    data: items.slice((pageNumber - 1) * perPage, pageNumber * perPage),
    total: items.length,
    page: pageNumber,
    per_page: perPage,
  };
}

export function registerMeetingListRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'meetings';
  const { db } = context;

  apiRoute(app, {
    name: 'get-upcoming-meetings.php',
    tag,
    summary: `Coming and running occurrences (next ${UPCOMING_HORIZON_DAYS} days) of meetings the user hosts or is invited to`,
    handler: async (body, { caller: { user }, t }) => {
      const { details, items } = await upcomingOccurrences(db, viewerOf(user), new Date(), body.search);
      const occurrences = items.map(({ row, occurrence }) => details.occurrence(row, occurrence));
      return success(t('meetings.list_ok'), page(occurrences, body));
    },
  });

  apiRoute(app, {
    name: 'get-recent-meetings.php',
    tag,
    summary: 'Past occurrences (last 365 days), newest first, with when they ran and who joined',
    handler: async (body, { caller: { user }, t }) => {
      const occurrences = await recentOccurrences(db, viewerOf(user), new Date(), body.search);
      return success(t('meetings.list_ok'), page(occurrences, body));
    },
  });

  apiRoute(app, {
    name: 'get-dashboard.php',
    tag,
    summary: 'Next meetings, meetings this week, hours met, contacts and meetings per week (8 weeks)',
    handler: async (_body, { caller: { user }, t }) => {
      const viewer = viewerOf(user);
      const now = new Date();
      const upcoming = await upcomingOccurrences(db, viewer, now);

      const thisWeek = startOfWeek(now, user.timeZone);
      const weekStarts = Array.from({ length: 8 }, (_, index) => addWeeks(thisWeek, index - 7, user.timeZone));
      const from = weekStarts[0] ?? thisWeek;
      const to = addWeeks(thisWeek, 1, user.timeZone);
      const rows = await loadVisibleMeetings(db, viewer, lt(meetings.startTime, to));
      const details = await MeetingDetails.load(db, viewer, rows);
      const counts = weekStarts.map(() => 0);
      for (const row of rows) {
        for (const occurrence of details.occurrences(row, from, to)) {
          if (occurrence.start < from) continue;
          let week = weekStarts.length - 1;
          while (week > 0 && occurrence.start < (weekStarts[week] ?? from)) week -= 1;
          counts[week] = (counts[week] ?? 0) + 1;
        }
      }

      const [met] = await db
        .select({
          seconds: sql<
            string | null
          >`sum(extract(epoch from (${meetingAttendance.leftAt} - ${meetingAttendance.joinedAt})))`,
        })
        .from(meetingAttendance)
        .where(and(eq(meetingAttendance.userId, user.id), isNotNull(meetingAttendance.leftAt)));
      const [contactCount] = await db
        .select({ value: count() })
        .from(contacts)
        .where(and(eq(contacts.ownerId, user.id), isNull(contacts.deletedAt)));

      return success(t('meetings.dashboard_ok'), {
        next_meetings: upcoming.items
          .slice(0, 5)
          .map(({ row, occurrence }) => upcoming.details.occurrence(row, occurrence)),
        meetings_this_week: counts[counts.length - 1] ?? 0,
        hours_met: Math.round((Number(met?.seconds ?? 0) / 3600) * 10) / 10,
        contacts_count: Number(contactCount?.value ?? 0),
        meetings_per_week: weekStarts.map((start, index) => ({
          week_start: toEpochSeconds(start),
          count: counts[index] ?? 0,
        })),
      });
    },
  });
}
