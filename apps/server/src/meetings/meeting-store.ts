import { PASSWORD_FLAG } from '@meetcast/contracts';
import type { AttendanceSummary, Invitee, Meeting, MeetingOccurrence } from '@meetcast/contracts';
import {
  and,
  eq,
  ilike,
  inArray,
  meetingExceptions,
  meetingInvitees,
  meetings,
  or,
  sql,
  users,
  type Database,
} from '@meetcast/db';
import type { MeetingRow } from '@meetcast/db';
export type { MeetingRow };
import type { SQL } from 'drizzle-orm';
import { occurrencesBetween, type Occurrence } from './occurrences.js';
import { toEpochSeconds } from '../platform/time.js';
import { containsPattern } from '../platform/text.js';

/** Who is looking: meetings are visible to their host and to their invitees (by account or address). */
export interface Viewer {
  id: number;
  email: string;
}

export function visibleTo(viewer: Viewer): SQL {
  return or(
    eq(meetings.hostId, viewer.id),
    sql`exists (select 1 from ${meetingInvitees} where ${meetingInvitees.meetingId} = ${meetings.id} and (${meetingInvitees.userId} = ${viewer.id} or ${meetingInvitees.email} = ${viewer.email}))`,
  ) as SQL;
}

/** Matches name, link or description, with the LIKE wildcards of the search taken literally. */
export function matchesSearch(search: string | undefined): SQL | undefined {
  const term = search?.trim();
  if (!term) return undefined;
  const pattern = containsPattern(term);
  return or(ilike(meetings.name, pattern), ilike(meetings.slug, pattern), ilike(meetings.description, pattern));
}

export async function loadVisibleMeetings(db: Database, viewer: Viewer, ...conditions: (SQL | undefined)[]) {
  return db
    .select()
    .from(meetings)
    .where(and(visibleTo(viewer), ...conditions));
}

export async function findVisibleMeeting(db: Database, viewer: Viewer, id: number): Promise<MeetingRow | undefined> {
  const [row] = await loadVisibleMeetings(db, viewer, eq(meetings.id, id));
  return row;
}

/** The instant a meeting stops taking place: its cancellation, or never. */
export function cutoffOf(row: MeetingRow): Date | undefined {
  return row.cancelledAt ?? undefined;
}

/** What the lists need beside the rows: cancelled occurrences, host names, invitees. */
export class MeetingDetails {
  private constructor(
    private readonly viewer: Viewer,
    readonly cancelled: Map<number, Set<number>>,
    private readonly hostNames: Map<number, string>,
    private readonly invitees: Map<number, Invitee[]>,
  ) {}

  static async load(db: Database, viewer: Viewer, rows: MeetingRow[]): Promise<MeetingDetails> {
    const ids = rows.map((row) => row.id);
    const cancelled = new Map<number, Set<number>>();
    const hostNames = new Map<number, string>();
    const invitees = new Map<number, Invitee[]>();
    if (ids.length > 0) {
      const exceptions = await db
        .select({ meetingId: meetingExceptions.meetingId, start: meetingExceptions.occurrenceStart })
        .from(meetingExceptions)
        .where(inArray(meetingExceptions.meetingId, ids));
      for (const exception of exceptions) {
        const set = cancelled.get(exception.meetingId) ?? new Set<number>();
        set.add(exception.start.getTime());
        cancelled.set(exception.meetingId, set);
      }
      const hostIds = [...new Set(rows.map((row) => row.hostId))];
      const hosts = await db
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(inArray(users.id, hostIds));
      for (const host of hosts) hostNames.set(host.id, host.username);
      const hosted = rows.filter((row) => row.hostId === viewer.id).map((row) => row.id);
      if (hosted.length > 0) {
        const invited = await db
          .select({
            meetingId: meetingInvitees.meetingId,
            email: meetingInvitees.email,
            userId: meetingInvitees.userId,
            username: users.username,
          })
          .from(meetingInvitees)
          .leftJoin(users, eq(users.id, meetingInvitees.userId))
          .where(inArray(meetingInvitees.meetingId, hosted))
          .orderBy(meetingInvitees.id);
        for (const invitee of invited) {
          const list = invitees.get(invitee.meetingId) ?? [];
          list.push({ email: invitee.email, user_id: invitee.userId, username: invitee.username });
          invitees.set(invitee.meetingId, list);
        }
      }
    }
    return new MeetingDetails(viewer, cancelled, hostNames, invitees);
  }

  /** Occurrences of one meeting overlapping [from, to), before its cancellation, without cancelled ones. */
  occurrences(row: MeetingRow, from: Date, to: Date, limit?: number): Occurrence[] {
    const cutoff = cutoffOf(row);
    const occurrences = occurrencesBetween(row, from, to, { cancelled: this.cancelled.get(row.id), limit });
    return cutoff ? occurrences.filter((occurrence) => occurrence.start < cutoff) : occurrences;
  }

  meeting(row: MeetingRow): Meeting {
    return toMeetingDto(row, {
      hostName: this.hostNames.get(row.hostId) ?? '',
      isHost: row.hostId === this.viewer.id,
      invitees: this.invitees.get(row.id) ?? [],
    });
  }

  occurrence(row: MeetingRow, occurrence: Occurrence, attendance: AttendanceSummary | null = null): MeetingOccurrence {
    return {
      ...this.meeting(row),
      occurrence_start: toEpochSeconds(occurrence.start),
      occurrence_end: toEpochSeconds(occurrence.end),
      attendance,
    };
  }
}

/** The wire form of a meeting. Only hosts and invitees ever get here, so they may know the password. */
export function toMeetingDto(
  row: MeetingRow,
  context: { hostName: string; isHost: boolean; invitees: Invitee[] },
): Meeting {
  return {
    id: row.id,
    host_id: row.hostId,
    host_name: context.hostName,
    name: row.name,
    slug: row.slug,
    url_slug: row.slug,
    description: row.description,
    is_schedule: row.isSchedule,
    start_time: toEpochSeconds(row.startTime),
    end_time: toEpochSeconds(row.endTime),
    is_private: row.isPrivate,
    is_password: row.isPassword,
    password: row.isPassword === PASSWORD_FLAG.yes ? row.passwordPlain : null,
    repeat: row.repeat,
    time_zone: row.timeZone,
    state: row.cancelledAt ? 'cancelled' : row.state,
    is_host: context.isHost,
    invitees: context.isHost ? context.invitees : [],
    created_at: toEpochSeconds(row.createdAt),
  };
}
