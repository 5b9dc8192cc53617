import { meetingRoomPath, PASSWORD_FLAG } from '@meetcast/contracts';
import type { calendarEvents } from '@meetcast/db';
import ical, {
  ICalAlarmType,
  ICalCalendarMethod,
  ICalEventRepeatingFreq,
  ICalEventStatus,
  type ICalCalendar,
} from 'ical-generator';
import { DateTime } from 'luxon';
import type { MeetingRow } from './meeting-store.js';
import { occurrencesBetween, recurrenceOf } from './occurrences.js';
import { safeZone } from '../platform/time.js';

export type EventRow = typeof calendarEvents.$inferSelect;

export interface IcsMeeting {
  row: MeetingRow;
  hostName: string;
  hostEmail: string;
  /** Start instants (ms) of cancelled occurrences. */
  cancelled: Iterable<number>;
  invitees: string[];
}

const FREQUENCIES = {
  DAILY: ICalEventRepeatingFreq.DAILY,
  WEEKLY: ICalEventRepeatingFreq.WEEKLY,
  MONTHLY: ICalEventRepeatingFreq.MONTHLY,
} as const;

/** A calendar app reminds this long before each occurrence, the same as the default mail reminder. */
export const ALARM_MINUTES_BEFORE = 10;

/** Whether an edit moves the meeting in a calendar (and so must raise its SEQUENCE). */
export function isScheduleChange(
  before: Pick<MeetingRow, 'startTime' | 'endTime' | 'repeat' | 'timeZone'>,
  after: Pick<MeetingRow, 'startTime' | 'endTime' | 'repeat' | 'timeZone'>,
): boolean {
  return (
    before.startTime.getTime() !== after.startTime.getTime() ||
    before.endTime.getTime() !== after.endTime.getTime() ||
    before.repeat !== after.repeat ||
    before.timeZone !== after.timeZone
  );
}

/** What the event tells a person who only sees their calendar: the link, the password, the host. */
function meetingDescription(meeting: IcsMeeting, url: string): string {
  const { row } = meeting;
  const lines = [`Join: ${url}`];
  if (row.isPassword === PASSWORD_FLAG.yes) {
    lines.push(
      row.passwordPlain
        ? `Password: ${row.passwordPlain} (the link above already carries it)`
        : 'This meeting asks for a password; the host will share it.',
    );
  }
  lines.push(`Host: ${meeting.hostName}`);
  return [row.description, lines.join('\n')].filter(Boolean).join('\n\n');
}

export function joinUrl(publicUrl: string, row: MeetingRow): string {
  return `${publicUrl}${meetingRoomPath({ url_slug: row.slug, password: row.isPassword === PASSWORD_FLAG.yes ? row.passwordPlain : null })}`;
}

function uidDomain(publicUrl: string): string {
  try {
    return new URL(publicUrl).hostname || 'meetcast';
  } catch {
    return 'meetcast';
  }
}

export function newCalendar(name: string, method?: ICalCalendarMethod): ICalCalendar {
  return ical({ name, prodId: { company: 'Meetcast', product: 'Meetcast', language: 'EN' }, method });
}

/** Adds a meeting as one VEVENT: repeating meetings carry an RRULE in their own zone and EXDATEs. */
export function addMeetingEvent(
  calendar: ICalCalendar,
  publicUrl: string,
  meeting: IcsMeeting,
  options: { isCancelled?: boolean } = {},
) {
  const { row } = meeting;
  const zone = safeZone(row.timeZone);
  const at = (date: Date) => DateTime.fromJSDate(date, { zone });
  const url = joinUrl(publicUrl, row);
  const recurrence = recurrenceOf(row.repeat);
  let status = ICalEventStatus.CONFIRMED;
  let until: DateTime | undefined;
  if (options.isCancelled) status = ICalEventStatus.CANCELLED;
  else if (row.cancelledAt) {
    // A cancelled series keeps the occurrences it already had, in the feed: it ends at the cancellation.
    const before = recurrence
      ? occurrencesBetween(row, row.startTime, row.cancelledAt, { cancelled: new Set(meeting.cancelled), limit: 1 })
      : [];
    if (before.length > 0) until = at(new Date(row.cancelledAt.getTime() - 1000));
    else status = ICalEventStatus.CANCELLED;
  }
  const excluded = [...meeting.cancelled].map((ms) => at(new Date(ms)));
  calendar.createEvent({
    id: `meeting-${row.id}@${uidDomain(publicUrl)}`,
    sequence: row.scheduleSequence,
    start: at(row.startTime),
    end: at(row.endTime),
    timezone: zone,
    summary: row.name,
    description: meetingDescription(meeting, url),
    location: url,
    url,
    status,
    created: row.createdAt,
    lastModified: row.updatedAt,
    organizer: { name: meeting.hostName, email: meeting.hostEmail },
    attendees: meeting.invitees.map((email) => ({ email, rsvp: true })),
    alarms:
      status === ICalEventStatus.CANCELLED
        ? []
        : [{ type: ICalAlarmType.display, triggerBefore: ALARM_MINUTES_BEFORE * 60, description: row.name }],
    repeating: recurrence
      ? {
          freq: FREQUENCIES[recurrence.freq],
          interval: recurrence.interval,
          until,
          // An empty list would be written as an empty EXDATE line, which strict parsers refuse.
          exclude: excluded.length > 0 ? excluded : undefined,
        }
      : undefined,
  });
}

/** A personal event; all-day events become dates in the owner's zone. */
export function addPersonalEvent(calendar: ICalCalendar, publicUrl: string, event: EventRow, ownerZone: string) {
  const zone = safeZone(ownerZone);
  const at = (date: Date) => DateTime.fromJSDate(date, { zone });
  calendar.createEvent({
    id: `event-${event.id}@${uidDomain(publicUrl)}`,
    sequence: Math.max(0, Math.floor((event.updatedAt.getTime() - event.createdAt.getTime()) / 1000)),
    start: at(event.startTime),
    end: at(event.endTime),
    allDay: event.isAllDay,
    timezone: event.isAllDay ? undefined : zone,
    summary: event.title,
    description: event.description || undefined,
    created: event.createdAt,
    lastModified: event.updatedAt,
  });
}

/** The calendar file sent with an invitation (REQUEST) or a cancellation (CANCEL). */
export function meetingInvitationIcs(publicUrl: string, meeting: IcsMeeting, method: 'REQUEST' | 'CANCEL'): string {
  const isCancelled = method === 'CANCEL';
  const calendar = newCalendar(meeting.row.name, isCancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST);
  addMeetingEvent(calendar, publicUrl, meeting, { isCancelled });
  return calendar.toString();
}
