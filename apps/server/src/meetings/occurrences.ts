import { REPEAT } from '@meetcast/contracts';
import { DateTime } from 'luxon';
import * as rruleModule from 'rrule';
import { safeZone } from '../platform/time.js';

// rrule ships CommonJS to Node (its classes sit on the default export there) and ES modules to bundlers.
const withDefault = rruleModule as unknown as { default?: typeof rruleModule };
const rrule: typeof rruleModule = withDefault.default?.RRule !== undefined ? withDefault.default : rruleModule;
const { RRule } = rrule;

export interface RepeatingMeeting {
  startTime: Date;
  endTime: Date;
  repeat: number;
  timeZone: string;
}

export interface Occurrence {
  start: Date;
  end: Date;
}

const RULES: Record<number, { freq: rruleModule.Frequency; interval: number }> = {
  [REPEAT.daily]: { freq: RRule.DAILY, interval: 1 },
  [REPEAT.weekly]: { freq: RRule.WEEKLY, interval: 1 },
  [REPEAT.biweekly]: { freq: RRule.WEEKLY, interval: 2 },
  [REPEAT.monthly]: { freq: RRule.MONTHLY, interval: 1 },
};

export const REPEAT_VALUES: readonly number[] = Object.values(REPEAT);
export const isRepeating = (repeat: number) => RULES[repeat] !== undefined;

/** The RFC 5545 frequency and interval of a repeat code, for ICS output. */
export function recurrenceOf(repeat: number): { freq: 'DAILY' | 'WEEKLY' | 'MONTHLY'; interval: number } | undefined {
  switch (repeat) {
    case REPEAT.daily:
      return { freq: 'DAILY', interval: 1 };
    case REPEAT.weekly:
      return { freq: 'WEEKLY', interval: 1 };
    case REPEAT.biweekly:
      return { freq: 'WEEKLY', interval: 2 };
    case REPEAT.monthly:
      return { freq: 'MONTHLY', interval: 1 };
    default:
      return undefined;
  }
}

const DAY_MS = 86_400_000;
/** No single expansion walks further than this many raw occurrences. */
const HARD_LIMIT = 5000;

/** The zone's wall clock at an instant, as a Date whose UTC fields are that wall clock (rrule's "floating" time). */
function toWall(instant: Date, zone: string): Date {
  const local = DateTime.fromJSDate(instant, { zone });
  return new Date(
    Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond),
  );
}

function fromWall(wall: Date, zone: string): Date {
  return DateTime.fromObject(
    {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
      millisecond: wall.getUTCMilliseconds(),
    },
    { zone },
  ).toJSDate();
}

/**
 * The occurrences of a meeting that overlap [rangeStart, rangeEnd), oldest first, at most `limit`.
 * Repeating meetings are expanded by rrule on the meeting zone's wall clock, so a weekly 09:00 meeting
 * stays at 09:00 local time across daylight-saving changes; a monthly meeting on the 31st skips
 * shorter months (RFC 5545). Cancelled occurrences (by start instant in ms) are left out.
 */
export function occurrencesBetween(
  meeting: RepeatingMeeting,
  rangeStart: Date,
  rangeEnd: Date,
  options: { cancelled?: ReadonlySet<number>; limit?: number } = {},
): Occurrence[] {
  const duration = Math.max(0, meeting.endTime.getTime() - meeting.startTime.getTime());
  const limit = Math.min(options.limit ?? HARD_LIMIT, HARD_LIMIT);
  const from = rangeStart.getTime();
  const to = rangeEnd.getTime();
  // An occurrence overlaps when it starts before the range ends and ends after it starts;
  // a zero-length one counts when its instant lies in the range.
  const overlaps = (start: number) => start < to && (start + duration > from || (duration === 0 && start >= from));
  const keep = (start: number) => overlaps(start) && !options.cancelled?.has(start);
  const rule = RULES[meeting.repeat];
  if (!rule) {
    const start = meeting.startTime.getTime();
    return keep(start) && limit > 0 ? [{ start: meeting.startTime, end: meeting.endTime }] : [];
  }
  if (to <= meeting.startTime.getTime()) return [];

  const zone = safeZone(meeting.timeZone);
  const recurrence = new RRule({ freq: rule.freq, interval: rule.interval, dtstart: toWall(meeting.startTime, zone) });
  // Walk the wall clock with a day of margin on each side for the zone offset, then keep the exact overlaps.
  const wallFrom = new Date(Math.max(from - duration, meeting.startTime.getTime()) - 2 * DAY_MS);
  const wallTo = new Date(to + 2 * DAY_MS);
  const found: Occurrence[] = [];
  let walked = 0;
  recurrence.between(toWall(wallFrom, 'UTC'), toWall(wallTo, 'UTC'), true, (wall) => {
    walked += 1;
    const start = fromWall(wall, zone);
    if (keep(start.getTime())) found.push({ start, end: new Date(start.getTime() + duration) });
    return found.length < limit && walked < HARD_LIMIT;
  });
  return found;
}

/** Whether `start` is the start of one of the meeting's occurrences. */
export function isOccurrenceStart(meeting: RepeatingMeeting, start: Date): boolean {
  const probe = occurrencesBetween(meeting, start, new Date(start.getTime() + 1), { limit: 50 });
  return probe.some((occurrence) => occurrence.start.getTime() === start.getTime());
}
