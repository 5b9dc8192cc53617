import {
  MEETING_PASSWORD_MAX,
  PASSWORD_FLAG,
  PRIVACY,
  REPEAT,
  SCHEDULE_FLAG,
  SLUG_MAX,
  SLUG_MIN,
  START_GRACE_SECONDS,
  slugProblem,
  type AddMeetingInput,
} from '@meetcast/contracts';
import type { Database } from '@meetcast/db';
import { badRequest, conflict } from '../http/app-error.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import type { MeetingRow } from './meeting-store.js';
import { REPEAT_VALUES } from './occurrences.js';
import { isValidTimeZone } from '../platform/time.js';

/** Refuses a slug that is empty, too short or long, or has characters outside [a-z0-9-]. */
export function checkSlugFormat(slug: string | undefined): string {
  const value = slug ?? '';
  switch (slugProblem(value)) {
    case 'empty':
      throw badRequest('meetings.slug_empty');
    case 'invalid_characters':
      throw badRequest('meetings.slug_invalid_characters');
    case 'too_short':
      throw badRequest('meetings.slug_too_short', { count: SLUG_MIN });
    case 'too_long':
      throw badRequest('meetings.slug_too_long', { count: SLUG_MAX });
    default:
      return value;
  }
}

/** Refuses a slug another meeting already uses (the unique index backs this up under races). */
export async function ensureSlugFree(db: Database, slug: string, exceptMeetingId?: number) {
  if (await new MeetingRepository(db).isSlugTaken(slug, exceptMeetingId)) throw conflict('meetings.slug_taken');
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]/;

export interface MeetingValues {
  name: string;
  slug: string;
  description: string;
  isSchedule: number;
  startTime: Date;
  endTime: Date;
  isPrivate: number;
  isPassword: number;
  /** A new password to hash and keep; undefined keeps the previous one (edits) or means none. */
  newPassword: string | undefined;
  repeat: number;
  timeZone: string;
}

function oneOf(
  value: number | undefined,
  fallback: number,
  allowed: readonly number[],
  key: Parameters<typeof badRequest>[0],
) {
  const chosen = value ?? fallback;
  if (!allowed.includes(chosen)) throw badRequest(key);
  return chosen;
}

/**
 * Every rule of the Schedule a meeting dialog, checked again on the server. On an edit, a start
 * time that did not change may lie in the past (a series that began last month), and an empty
 * password keeps the one the meeting has.
 */
export function checkMeetingValues(
  input: AddMeetingInput,
  options: { now: Date; defaultTimeZone: string; previous?: MeetingRow },
): MeetingValues {
  const slug = checkSlugFormat(input.slug);
  const isSchedule = oneOf(
    input.is_schedule,
    SCHEDULE_FLAG.scheduled,
    Object.values(SCHEDULE_FLAG),
    'meetings.schedule_flag_invalid',
  );
  const isPrivate = oneOf(input.is_private, PRIVACY.public, Object.values(PRIVACY), 'meetings.privacy_invalid');
  const passwordFlag = oneOf(
    input.is_password,
    PASSWORD_FLAG.no,
    Object.values(PASSWORD_FLAG),
    'meetings.password_flag_invalid',
  );
  const repeat = oneOf(input.repeat, REPEAT.none, REPEAT_VALUES, 'meetings.repeat_invalid');

  const timeZone = input.time_zone?.trim() || options.previous?.timeZone || options.defaultTimeZone;
  if (!isValidTimeZone(timeZone)) throw badRequest('meetings.time_zone_invalid');

  const startTime = new Date(input.start_time * 1000);
  const endTime = new Date(input.end_time * 1000);
  const startUnchanged = options.previous?.startTime.getTime() === startTime.getTime();
  if (!startUnchanged && input.start_time < Math.floor(options.now.getTime() / 1000) - START_GRACE_SECONDS) {
    throw badRequest('meetings.start_in_past');
  }
  if (input.end_time < input.start_time) throw badRequest('meetings.end_before_start');

  // The password flag only means something for private meetings (the `is_password` field in /api/openapi.json).
  const isPassword = isPrivate === PRIVACY.private ? passwordFlag : PASSWORD_FLAG.no;
  let newPassword: string | undefined;
  if (isPassword === PASSWORD_FLAG.yes) {
    const password = input.password ?? '';
    if (password.trim() === '') {
      if (!options.previous?.passwordHash) throw badRequest('meetings.password_required');
    } else {
      if (password.length > MEETING_PASSWORD_MAX)
        throw badRequest('meetings.password_too_long', { count: MEETING_PASSWORD_MAX });
      if (CONTROL_CHARACTERS.test(password)) throw badRequest('meetings.password_invalid');
      newPassword = password;
    }
  }

  return {
    name: input.name,
    slug,
    description: input.description ?? '',
    isSchedule,
    startTime,
    endTime,
    isPrivate,
    isPassword,
    newPassword,
    repeat,
    timeZone,
  };
}
