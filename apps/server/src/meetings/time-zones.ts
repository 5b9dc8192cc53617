import type { Language } from '@meetcast/contracts';
import { DateTime, IANAZone } from 'luxon';

/** True for the IANA names (`Europe/Berlin`, `UTC`) that the zone database knows. */
export function isValidTimeZone(zone: string): boolean {
  return zone.length > 0 && zone.length <= 64 && IANAZone.isValidZone(zone);
}

/** A zone name safe to compute with: unknown names fall back to UTC. */
export function safeZone(zone: string | null | undefined): string {
  return zone && isValidTimeZone(zone) ? zone : 'UTC';
}

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

/** "Friday, 20 March 2026 at 09:00 (Europe/Berlin)" in the reader's language and zone. */
export function formatWhen(instant: Date, zone: string, language: Language): string {
  const safe = safeZone(zone);
  const formatted = new Intl.DateTimeFormat(language, {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: safe,
  }).format(instant);
  return `${formatted} (${safe})`;
}

export function formatTime(instant: Date, zone: string, language: Language): string {
  return new Intl.DateTimeFormat(language, { timeStyle: 'short', timeZone: safeZone(zone) }).format(instant);
}
