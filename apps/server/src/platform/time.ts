import type { Language } from '@meetcast/contracts';
import { IANAZone } from 'luxon';

/** The API's instants are whole seconds since the epoch. */
export const toEpochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
export const toEpochSecondsOrNull = (date: Date | null) => (date ? toEpochSeconds(date) : null);

/** Epoch seconds as an ISO 8601 UTC time (empty when absent). */
export function isoTime(seconds: number | null | undefined): string {
  return seconds === null || seconds === undefined ? '' : new Date(seconds * 1000).toISOString();
}

/** True for the IANA names (`Europe/Berlin`, `UTC`) that the zone database knows. */
export function isValidTimeZone(zone: string): boolean {
  return zone.length > 0 && zone.length <= 64 && IANAZone.isValidZone(zone);
}

/** A zone name safe to compute with: unknown names fall back to UTC. */
export function safeZone(zone: string | null | undefined): string {
  return zone && isValidTimeZone(zone) ? zone : 'UTC';
}

/**
 * "Friday, 20 March 2026 at 09:00 (Europe/Berlin)" in the reader's language and zone; an unknown
 * zone reads as UTC and an unknown language as English, so a mail is never lost to a bad setting.
 */
export function formatWhen(instant: Date, zone: string | null | undefined, language: Language | string): string {
  const safe = safeZone(zone);
  return `${formatted(instant, language, { dateStyle: 'full', timeStyle: 'short', timeZone: safe })} (${safe})`;
}

export function formatTime(instant: Date, zone: string, language: Language): string {
  return formatted(instant, language, { timeStyle: 'short', timeZone: safeZone(zone) });
}

function formatted(instant: Date, language: string, options: Intl.DateTimeFormatOptions) {
  try {
    return new Intl.DateTimeFormat(language, options).format(instant);
  } catch {
    return new Intl.DateTimeFormat('en', options).format(instant);
  }
}
