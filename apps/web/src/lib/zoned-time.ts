/**
 * Times travel as epoch seconds and show in the user's time zone (their profile), which need not be
 * the browser's. Pickers and the calendar work on browser-local Dates, so a "wall" Date here is a
 * local Date whose fields read the wall clock of the user's zone.
 */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function isKnownTimeZone(zone: string | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds the zone's wall clock is ahead of UTC at an instant. */
function offsetMs(instantMs: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instantMs));
  const field = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const wall = Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
  return wall - Math.floor(instantMs / 1000) * 1000;
}

/** The wall clock of `zone` at an instant, as a browser-local Date. */
export function toWall(epochSeconds: number, zone: string): Date {
  const shifted = new Date(epochSeconds * 1000 + offsetMs(epochSeconds * 1000, zone));
  return new Date(
    shifted.getUTCFullYear(),
    shifted.getUTCMonth(),
    shifted.getUTCDate(),
    shifted.getUTCHours(),
    shifted.getUTCMinutes(),
    shifted.getUTCSeconds(),
  );
}

/** A browser-local Date read as the wall clock of `zone`, back to whole epoch seconds. */
export function fromWall(wall: Date, zone: string): number {
  const asUtc = Date.UTC(
    wall.getFullYear(),
    wall.getMonth(),
    wall.getDate(),
    wall.getHours(),
    wall.getMinutes(),
    wall.getSeconds(),
  );
  const first = asUtc - offsetMs(asUtc, zone);
  return Math.floor((asUtc - offsetMs(first, zone)) / 1000);
}

/** One way to write a time of day per language: "5:00 PM" in English, "17:00" in German. */
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const DAY_AND_DATE: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' };

export function formatDateTime(epochSeconds: number, zone: string, language: string): string {
  return new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    ...TIME,
    timeZone: zone,
  }).format(epochSeconds * 1000);
}

export function formatTime(epochSeconds: number, zone: string, language: string): string {
  return new Intl.DateTimeFormat(language, { ...TIME, timeZone: zone }).format(epochSeconds * 1000);
}

export function formatDay(epochSeconds: number, zone: string, language: string): string {
  return new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: zone }).format(
    epochSeconds * 1000,
  );
}

/**
 * "Wed, Mar 3, 2027, 5:00 PM – 6:00 PM", both times written the same way, or both full dates when the
 * end falls on another day.
 */
export function formatRange(start: number, end: number, zone: string, language: string): string {
  const sameDay = toWall(start, zone).toDateString() === toWall(end, zone).toDateString();
  const withDate = new Intl.DateTimeFormat(language, { ...DAY_AND_DATE, ...TIME, timeZone: zone });
  const last = sameDay ? formatTime(end, zone, language) : withDate.format(end * 1000);
  return `${withDate.format(start * 1000)} – ${last}`;
}
