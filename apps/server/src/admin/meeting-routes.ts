import { type AdminMeeting, type AdminMeetingListInput } from '@meetcast/contracts';
import { and, count, eq, meetingAttendance, meetings, or, sql, users } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, done } from '../http/api-route.js';
import { conflict, notFound } from '../http/app-error.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import { actorOf, writeAudit } from './audit.js';
import { likePattern, ordered, pageHandler, searchedId, type Slice } from './list-query.js';
import { endMeetings } from '../rooms/end-meetings.js';
import { isMeetingLive, markMeetingsEnded } from './meeting-control.js';
import { toEpochSeconds } from '../platform/time.js';

const participants = sql<number>`(select count(*)::int from ${meetingAttendance} where ${meetingAttendance.meetingId} = ${meetings.id} and ${meetingAttendance.leftAt} is null)`;

const SORT_COLUMNS = {
  id: meetings.id,
  name: sql`lower(${meetings.name})`,
  host: sql`lower(${users.username})`,
  start_time: meetings.startTime,
  state: meetings.state,
  created_at: meetings.createdAt,
} as const;

function meetingFilter(input: AdminMeetingListInput) {
  const pattern = input.search ? likePattern(input.search) : undefined;
  const id = searchedId(input.search);
  return and(
    pattern
      ? or(
          sql`lower(${meetings.name}) like ${pattern}`,
          sql`lower(${meetings.slug}) like ${pattern}`,
          sql`lower(${users.username}) like ${pattern}`,
          sql`lower(${users.email}) like ${pattern}`,
          id ? eq(meetings.id, id) : undefined,
        )
      : undefined,
    input.state ? eq(meetings.state, input.state) : undefined,
  );
}

/** Every meeting on the installation with its host, one page at a time. */
export async function listMeetings(
  context: AppContext,
  input: AdminMeetingListInput,
  slice: Slice,
): Promise<{ rows: AdminMeeting[]; total: number }> {
  const where = meetingFilter(input);
  const direction = input.direction ?? (input.sort ? 'asc' : 'desc');
  const [rows, [totalRow]] = await Promise.all([
    context.db
      .select({ meeting: meetings, host: { id: users.id, username: users.username, email: users.email }, participants })
      .from(meetings)
      .innerJoin(users, eq(users.id, meetings.hostId))
      .where(where)
      .orderBy(ordered(SORT_COLUMNS[input.sort ?? 'id'], direction), ordered(meetings.id, direction))
      .limit(slice.limit)
      .offset(slice.offset),
    context.db.select({ total: count() }).from(meetings).innerJoin(users, eq(users.id, meetings.hostId)).where(where),
  ]);
  return {
    total: totalRow?.total ?? 0,
    rows: rows.map(({ meeting, host, participants: present }) => ({
      id: meeting.id,
      name: meeting.name,
      url_slug: meeting.slug,
      host,
      is_schedule: meeting.isSchedule,
      is_private: meeting.isPrivate,
      is_password: meeting.isPassword,
      repeat: meeting.repeat,
      start_time: toEpochSeconds(meeting.startTime),
      end_time: toEpochSeconds(meeting.endTime),
      state: meeting.state,
      participants: present,
      created_at: toEpochSeconds(meeting.createdAt),
    })),
  };
}

export function registerAdminMeetingRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'admin';

  apiRoute(app, {
    name: 'admin-get-meetings.php',
    tag,
    summary: 'Every meeting with host, schedule, privacy, state and people present; search, filter, sort, page',
    handler: pageHandler((query, slice) => listMeetings(context, query, slice)),
  });

  apiRoute(app, {
    name: 'admin-end-meeting.php',
    tag,
    summary: 'End a live meeting for everyone: state ended, everybody leaves, the live room is torn down',
    handler: async (body, { request, caller: session, t }) => {
      const ended = await endMeetings(context, [body.id], 'admin', () =>
        context.db.transaction(async (tx) => {
          const meeting = await new MeetingRepository(tx).findByIdForUpdate(body.id);
          if (!meeting) throw notFound('admin.meeting_not_found');
          if (!(await isMeetingLive(tx, meeting.id, meeting.state))) throw conflict('admin.meeting_not_live');
          await markMeetingsEnded(tx, [meeting.id]);
          await writeAudit(tx, actorOf(session, request), [
            {
              action: 'meeting.ended',
              targetType: 'meeting',
              targetId: meeting.id,
              details: { name: meeting.name, slug: meeting.slug },
            },
          ]);
          return meeting;
        }),
      );
      return done(t('admin.meeting_ended', { name: ended.name }));
    },
  });

  apiRoute(app, {
    name: 'admin-delete-meeting.php',
    tag,
    summary: 'Delete a meeting (a live one is ended for everyone first)',
    handler: async (body, { request, caller: session, t }) => {
      // The placement is read before the row goes (it cascades away with it), then the room is torn down.
      const meeting = await endMeetings(context, [body.id], 'deleted', () =>
        context.db.transaction(async (tx) => {
          const meetingsInTx = new MeetingRepository(tx);
          const row = await meetingsInTx.findByIdForUpdate(body.id);
          if (!row) throw notFound('admin.meeting_not_found');
          await meetingsInTx.delete(row.id);
          await writeAudit(tx, actorOf(session, request), [
            {
              action: 'meeting.deleted',
              targetType: 'meeting',
              targetId: row.id,
              details: { name: row.name, slug: row.slug, host_id: row.hostId },
            },
          ]);
          return row;
        }),
      );
      return done(t('admin.meeting_deleted', { name: meeting.name }));
    },
  });
}
