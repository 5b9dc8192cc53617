import { ADMIN_MAX_EVENT_RANGE_DAYS, REPEAT, type AdminEvent } from '@meetcast/contracts';
import {
  and,
  calendarEvents,
  eq,
  gt,
  inArray,
  lt,
  meetingExceptions,
  meetings,
  ne,
  or,
  sql,
  users,
} from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { apiRoute, done, success } from '../http/api-route.js';
import { badRequest, notFound } from '../http/app-error.js';
import { requestLanguage } from '../http/request-language.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import { deleteCalendarEvent } from '../meetings/calendar-events.js';
import { translate } from '../i18n/messages.js';
import { actorOf, writeAudit } from './audit.js';
import { likePattern } from './list-query.js';
import { isOccurrenceStart, isRepeating, occurrencesBetween } from '../meetings/occurrences.js';
import { endMeetings } from '../rooms/end-meetings.js';
import { toEpochSeconds } from '../platform/time.js';

/** The most entries one answer carries; `truncated` says when there were more. */
export const EVENTS_LIMIT = 5000;
const MEETING_COLOR = '#0ea5e9';

export interface EventQuery {
  start: number;
  end: number;
  search?: string | undefined;
  kind?: 'event' | 'meeting' | undefined;
}

/** Calendar events and meeting occurrences (repeats expanded) overlapping [start, end), by start time. */
export async function listEvents(context: AppContext, query: EventQuery, limit = EVENTS_LIMIT) {
  if (query.end <= query.start || query.end - query.start > ADMIN_MAX_EVENT_RANGE_DAYS * 86_400) {
    throw badRequest('admin.events_range', { count: ADMIN_MAX_EVENT_RANGE_DAYS });
  }
  const rangeStart = new Date(query.start * 1000);
  const rangeEnd = new Date(query.end * 1000);
  const pattern = query.search ? likePattern(query.search) : undefined;
  const owner = { id: users.id, username: users.username, email: users.email };
  const ownerMatches = pattern
    ? [sql`lower(${users.username}) like ${pattern}`, sql`lower(${users.email}) like ${pattern}`]
    : [];
  const found: AdminEvent[] = [];

  if (query.kind !== 'meeting') {
    const rows = await context.db
      .select({ event: calendarEvents, owner })
      .from(calendarEvents)
      .innerJoin(users, eq(users.id, calendarEvents.userId))
      .where(
        and(
          lt(calendarEvents.startTime, rangeEnd),
          gt(calendarEvents.endTime, rangeStart),
          pattern ? or(sql`lower(${calendarEvents.title}) like ${pattern}`, ...ownerMatches) : undefined,
        ),
      )
      .orderBy(calendarEvents.startTime, calendarEvents.id)
      .limit(limit + 1);
    for (const { event, owner: person } of rows) {
      found.push({
        key: `event-${event.id}`,
        kind: 'event',
        id: event.id,
        title: event.title,
        start_time: toEpochSeconds(event.startTime),
        end_time: toEpochSeconds(event.endTime),
        is_all_day: event.isAllDay,
        color: event.color,
        owner: person,
        repeat: 0,
        url_slug: null,
      });
    }
  }

  if (query.kind !== 'event') {
    const rows = await context.db
      .select({ meeting: meetings, owner })
      .from(meetings)
      .innerJoin(users, eq(users.id, meetings.hostId))
      .where(
        and(
          lt(meetings.startTime, rangeEnd),
          or(ne(meetings.repeat, REPEAT.none), gt(meetings.endTime, rangeStart)),
          pattern
            ? or(
                sql`lower(${meetings.name}) like ${pattern}`,
                sql`lower(${meetings.slug}) like ${pattern}`,
                ...ownerMatches,
              )
            : undefined,
        ),
      )
      .orderBy(meetings.startTime, meetings.id)
      .limit(limit + 1);
    const repeatingIds = rows.filter((row) => isRepeating(row.meeting.repeat)).map((row) => row.meeting.id);
    const cancelled = new Map<number, Set<number>>();
    if (repeatingIds.length > 0) {
      const exceptions = await context.db
        .select()
        .from(meetingExceptions)
        .where(inArray(meetingExceptions.meetingId, repeatingIds));
      for (const exception of exceptions) {
        const set = cancelled.get(exception.meetingId) ?? new Set<number>();
        set.add(exception.occurrenceStart.getTime());
        cancelled.set(exception.meetingId, set);
      }
    }
    for (const { meeting, owner: person } of rows) {
      // A cancelled series keeps the occurrences that came before its cancellation.
      const occurrences = occurrencesBetween(meeting, rangeStart, rangeEnd, {
        cancelled: cancelled.get(meeting.id),
        limit: limit + 1,
      }).filter((occurrence) => !meeting.cancelledAt || occurrence.start < meeting.cancelledAt);
      for (const occurrence of occurrences) {
        const start = toEpochSeconds(occurrence.start);
        found.push({
          key: `meeting-${meeting.id}-${start}`,
          kind: 'meeting',
          id: meeting.id,
          title: meeting.name,
          start_time: start,
          end_time: toEpochSeconds(occurrence.end),
          is_all_day: false,
          color: MEETING_COLOR,
          owner: person,
          repeat: meeting.repeat,
          url_slug: meeting.slug,
        });
      }
    }
  }

  found.sort((a, b) => a.start_time - b.start_time || a.key.localeCompare(b.key));
  return { rows: found.slice(0, limit), truncated: found.length > limit };
}

export function registerAdminEventRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'admin';

  apiRoute(app, {
    name: 'admin-get-events.php',
    tag,
    summary: `Every calendar event and meeting occurrence (repeats expanded) in a range of at most ${ADMIN_MAX_EVENT_RANGE_DAYS} days`,
    handler: async (body, { t }) => {
      const { rows, truncated } = await listEvents(context, body);
      return success(t('admin.list_ok'), { data: rows, truncated });
    },
  });

  apiRoute(app, {
    name: 'admin-delete-event.php',
    tag,
    summary:
      'Delete a calendar event; for a meeting, cancel the one occurrence of a repeating meeting (occurrence_start) or delete a single meeting',
    handler: async (body, { request, caller: session }) => {
      const actor = actorOf(session, request);
      const language = requestLanguage(request);
      if (body.kind === 'event') {
        await context.db.transaction(async (tx) => {
          const row = await deleteCalendarEvent(tx, body.id);
          if (!row) throw notFound('admin.event_not_found');
          await writeAudit(tx, actor, [
            {
              action: 'event.deleted',
              targetType: 'calendar_event',
              targetId: row.id,
              details: { title: row.title, owner_id: row.userId },
            },
          ]);
        });
        return done(translate(language, 'admin.event_deleted'));
      }
      // A deleted meeting's room is torn down with the placement read before the delete.
      await endMeetings(
        context,
        [body.id],
        'deleted',
        () =>
          context.db.transaction(async (tx) => {
            const meetingsInTx = new MeetingRepository(tx);
            const meeting = await meetingsInTx.findByIdForUpdate(body.id);
            if (!meeting) throw notFound('admin.event_not_found');
            if (isRepeating(meeting.repeat)) {
              if (body.occurrence_start === undefined) throw badRequest('admin.occurrence_required');
              const at = body.occurrence_start * 1000;
              if (!isOccurrenceStart(meeting, new Date(at))) throw notFound('admin.event_not_found');
              if (!(await meetingsInTx.cancelOccurrence(meeting.id, new Date(at))))
                throw notFound('admin.event_not_found');
              await writeAudit(tx, actor, [
                {
                  action: 'meeting.occurrence_cancelled',
                  targetType: 'meeting',
                  targetId: meeting.id,
                  details: { name: meeting.name, occurrence_start: body.occurrence_start },
                },
              ]);
              return { deleted: false };
            }
            await meetingsInTx.delete(meeting.id);
            await writeAudit(tx, actor, [
              {
                action: 'meeting.deleted',
                targetType: 'meeting',
                targetId: meeting.id,
                details: { name: meeting.name, slug: meeting.slug, host_id: meeting.hostId },
              },
            ]);
            return { deleted: true };
          }),
        (outcome) => (outcome.deleted ? [body.id] : []),
      );
      return done(translate(language, 'admin.event_deleted'));
    },
  });
}
