import { DateTime } from 'luxon';
import { safeZone } from '../platform/time.js';

/** Monday 00:00 of the week containing the instant, in the zone. */
export function startOfWeek(instant: Date, zone: string): Date {
  return DateTime.fromJSDate(instant, { zone: safeZone(zone) })
    .startOf('week')
    .toJSDate();
}

export function addWeeks(instant: Date, weeks: number, zone: string): Date {
  return DateTime.fromJSDate(instant, { zone: safeZone(zone) })
    .plus({ weeks })
    .toJSDate();
}
