import { randomBytes } from 'node:crypto';
import { CALENDAR_RANGE_MAX_DAYS, DEFAULT_EVENT_COLOR, type CalendarEvent } from '@meetcast/contracts';
import {
  and,
  asc,
  calendarEvents,
  eq,
  gt,
  inArray,
  isNull,
  lt,
  meetingInvitees,
  meetings,
  ne,
  or,
  users,
  type UserRow,
} from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { claimCalendarFeedToken, setCalendarFeedToken } from '../accounts/user-records.js';
import type { AppContext } from '../context.js';
import { apiRoute, done, success } from '../http/api-route.js';
import { badRequest, notFound } from '../http/app-error.js';
import { requestLanguage } from '../http/request-language.js';
import { translate } from '../i18n/messages.js';
import { deleteCalendarEvent } from './calendar-events.js';
import { addMeetingEvent, addPersonalEvent, newCalendar, type EventRow } from './ics.js';
import { MeetingDetails, loadVisibleMeetings } from './meeting-store.js';
import { viewerOf } from './routes.js';
import { toEpochSeconds } from '../platform/time.js';

const DAY_MS = 86_400_000;
/** How far back the private feed reaches; calendar apps keep what they already fetched. */
const FEED_HISTORY_DAYS = 180;

function toEventDto(row: EventRow): CalendarEvent {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    start_time: toEpochSeconds(row.startTime),
    end_time: toEpochSeconds(row.endTime),
    is_all_day: row.isAllDay,
    color: row.color,
    created_at: toEpochSeconds(row.createdAt),
  };
}

function checkRange(start: number, end: number) {
  if (end <= start) throw badRequest('calendar.range_invalid');
  if (end - start > CALENDAR_RANGE_MAX_DAYS * 86_400) {
    throw badRequest('calendar.range_too_long', { count: CALENDAR_RANGE_MAX_DAYS });
  }
  return { from: new Date(start * 1000), to: new Date(end * 1000) };
}

/** 256 random bits: the feed address is the only key to it. */
const newFeedToken = () => randomBytes(32).toString('base64url');
const FeedFileSchema = z.object({ file: z.string().max(200) });

export function registerCalendarRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'calendar';
  const { db } = context;

  async function ownEvent(user: UserRow, id: number): Promise<EventRow> {
    const [row] = await db
      .select()
      .from(calendarEvents)
      .where(and(eq(calendarEvents.id, id), eq(calendarEvents.userId, user.id)));
    if (!row) throw notFound('events.not_found');
    return row;
  }

  apiRoute(app, {
    name: 'get-events.php',
    tag,
    summary: "The user's personal calendar events, optionally those overlapping [start_time, end_time)",
    handler: async (body, { caller: { user }, t }) => {
      const rows = await db
        .select()
        .from(calendarEvents)
        .where(
          and(
            eq(calendarEvents.userId, user.id),
            body.end_time !== undefined ? lt(calendarEvents.startTime, new Date(body.end_time * 1000)) : undefined,
            body.start_time !== undefined ? gt(calendarEvents.endTime, new Date(body.start_time * 1000)) : undefined,
          ),
        )
        .orderBy(asc(calendarEvents.startTime), asc(calendarEvents.id))
        .limit(2000);
      return success(t('events.list_ok'), { data: rows.map(toEventDto) });
    },
  });

  apiRoute(app, {
    name: 'add-event.php',
    tag,
    summary: 'Add a personal event (title, start, end, all-day, description, color)',
    handler: async (body, { caller: { user }, t }) => {
      if (body.end_time < body.start_time) throw badRequest('events.end_before_start');
      const [row] = await db
        .insert(calendarEvents)
        .values({
          userId: user.id,
          title: body.title,
          description: body.description ?? '',
          startTime: new Date(body.start_time * 1000),
          endTime: new Date(body.end_time * 1000),
          isAllDay: body.is_all_day ?? false,
          color: (body.color ?? DEFAULT_EVENT_COLOR).toLowerCase(),
        })
        .returning();
      if (!row) throw new Error('event insert returned nothing');
      return success(t('events.created'), toEventDto(row));
    },
  });

  apiRoute(app, {
    name: 'edit-event.php',
    tag,
    summary: 'Change or move a personal event',
    handler: async (body, { caller: { user }, t }) => {
      const previous = await ownEvent(user, body.id);
      if (body.end_time < body.start_time) throw badRequest('events.end_before_start');
      const [row] = await db
        .update(calendarEvents)
        .set({
          title: body.title,
          description: body.description ?? previous.description,
          startTime: new Date(body.start_time * 1000),
          endTime: new Date(body.end_time * 1000),
          isAllDay: body.is_all_day ?? previous.isAllDay,
          color: (body.color ?? previous.color).toLowerCase(),
          updatedAt: new Date(),
        })
        .where(and(eq(calendarEvents.id, previous.id), eq(calendarEvents.userId, user.id)))
        .returning();
      if (!row) throw notFound('events.not_found');
      return success(t('events.updated'), toEventDto(row));
    },
  });

  apiRoute(app, {
    name: 'delete-event.php',
    tag,
    summary: 'Delete a personal event',
    handler: async (body, { caller: { user }, t }) => {
      if (!(await deleteCalendarEvent(db, body.id, user.id))) throw notFound('events.not_found');
      return done(t('events.deleted'));
    },
  });

  apiRoute(app, {
    name: 'get-calendar.php',
    tag,
    summary: `Personal events and meeting occurrences overlapping [start_time, end_time) (at most ${CALENDAR_RANGE_MAX_DAYS} days)`,
    handler: async (body, { caller: { user }, t }) => {
      const { from, to } = checkRange(body.start_time, body.end_time);
      const viewer = viewerOf(user);
      const events = await db
        .select()
        .from(calendarEvents)
        .where(
          and(eq(calendarEvents.userId, user.id), lt(calendarEvents.startTime, to), gt(calendarEvents.endTime, from)),
        )
        .orderBy(asc(calendarEvents.startTime));
      const rows = await loadVisibleMeetings(db, viewer, lt(meetings.startTime, to));
      const details = await MeetingDetails.load(db, viewer, rows);
      const occurrences = rows
        .flatMap((row) => details.occurrences(row, from, to).map((occurrence) => details.occurrence(row, occurrence)))
        .sort((a, b) => a.occurrence_start - b.occurrence_start || a.id - b.id);
      return success(t('calendar.loaded'), { events: events.map(toEventDto), meetings: occurrences });
    },
  });

  const feedUrl = (token: string) => `${context.config.publicUrl}/api/calendar-feed/${token}.ics`;

  apiRoute(app, {
    name: 'get-calendar-feed.php',
    tag,
    summary: "The user's private ICS feed address (created on first use) for calendar apps to subscribe to",
    handler: async (_body, { caller: { user }, t }) => {
      const [current] = await db.select({ token: users.calendarFeedToken }).from(users).where(eq(users.id, user.id));
      let token = current?.token;
      if (!token) {
        token = await claimCalendarFeedToken(db, user.id, newFeedToken());
        if (!token) {
          const [again] = await db.select({ token: users.calendarFeedToken }).from(users).where(eq(users.id, user.id));
          token = again?.token;
        }
      }
      if (!token) throw notFound();
      return success(t('meetings.feed_ok'), { url: feedUrl(token) });
    },
  });

  apiRoute(app, {
    name: 'reset-calendar-feed.php',
    tag,
    summary: 'Give the private ICS feed a new address; the old one stops working',
    handler: async (_body, { caller: { user }, t }) => {
      const token = newFeedToken();
      await setCalendarFeedToken(db, user.id, token);
      return success(t('meetings.feed_reset'), { url: feedUrl(token) });
    },
  });

  // Calendar apps subscribe with a plain GET; the unguessable token in the address is the credential.
  app.get(
    '/api/calendar-feed/:file',
    {
      schema: {
        tags: [tag],
        summary: 'The private ICS feed: meetings (with repeat rules) and personal events of one user',
        params: FeedFileSchema,
      },
    },
    async (request, reply) => {
      const { file } = request.params as z.infer<typeof FeedFileSchema>;
      const token = file.replace(/\.ics$/, '');
      const [owner] =
        token.length >= 32
          ? await db
              .select()
              .from(users)
              .where(and(eq(users.calendarFeedToken, token), isNull(users.disabledAt)))
          : [];
      if (!owner) {
        return reply
          .status(404)
          .send({ status: 'error', message: translate(requestLanguage(request), 'errors.not_found') });
      }
      const viewer = viewerOf(owner);
      const since = new Date(Date.now() - FEED_HISTORY_DAYS * DAY_MS);
      const rows = await loadVisibleMeetings(db, viewer, or(gt(meetings.endTime, since), ne(meetings.repeat, 0)));
      const details = await MeetingDetails.load(db, viewer, rows);
      const hostIds = [...new Set(rows.map((row) => row.hostId))];
      const hosts = hostIds.length ? await db.select().from(users).where(inArray(users.id, hostIds)) : [];
      const hosted = rows.filter((row) => row.hostId === owner.id).map((row) => row.id);
      const invitees = hosted.length
        ? await db
            .select({ meetingId: meetingInvitees.meetingId, email: meetingInvitees.email })
            .from(meetingInvitees)
            .where(inArray(meetingInvitees.meetingId, hosted))
        : [];
      const calendar = newCalendar('Meetcast');
      for (const row of rows) {
        const host = hosts.find((candidate) => candidate.id === row.hostId);
        addMeetingEvent(calendar, context.config.publicUrl, {
          row,
          hostName: host?.username ?? '',
          hostEmail: host?.email ?? '',
          cancelled: details.cancelled.get(row.id) ?? [],
          invitees: invitees.filter((invitee) => invitee.meetingId === row.id).map((invitee) => invitee.email),
        });
      }
      const events = await db
        .select()
        .from(calendarEvents)
        .where(and(eq(calendarEvents.userId, owner.id), gt(calendarEvents.endTime, since)));
      for (const event of events) addPersonalEvent(calendar, context.config.publicUrl, event, owner.timeZone);
      return reply
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', 'inline; filename="meetcast.ics"')
        .type('text/calendar; charset=utf-8')
        .send(calendar.toString());
    },
  );
}
