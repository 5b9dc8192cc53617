import { randomInt } from 'node:crypto';
import { PASSWORD_FLAG, PRIVACY, REPEAT, SCHEDULE_FLAG } from '@meetcast/contracts';
import type { MeetingRow } from '@meetcast/db';
import { MeetingRepository, type Executor } from './meeting-repository.js';
import { hashPassword } from '../platform/hashing.js';

/** An instant meeting's nominal length; the room keeps going as long as people stay. */
export const INSTANT_MEETING_MINUTES = 60;

const SLUG_LETTERS = 'abcdefghijkmnopqrstuvwxyz';
const PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function randomFrom(alphabet: string, length: number) {
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/** `abc-defg-hij`: easy to read aloud, and inside the meeting slug rules (lower-case, hyphens). */
export function generateMeetingSlug(): string {
  return `${randomFrom(SLUG_LETTERS, 3)}-${randomFrom(SLUG_LETTERS, 4)}-${randomFrom(SLUG_LETTERS, 3)}`;
}

/** The one format of a generated meeting password: 8 characters without look-alikes (about 39 bits). */
export function generateMeetingPassword(): string {
  return randomFrom(PASSWORD_ALPHABET, 8);
}

export interface InstantMeetingRequest {
  hostId: number;
  name: string;
  description?: string;
  timeZone: string;
  /** The link the host chose (checked by the caller); a readable one is generated when absent. */
  slug?: string;
  /** A generated password makes the meeting private; without one it is public. */
  withPassword: boolean;
  /** A broadcast planned for later (a scheduled meeting); absent, the meeting starts now for an hour. */
  window?: { startTime: Date; endTime: Date };
  channelId?: number | null;
}

/**
 * The one way a meeting is made in one step, without the scheduling dialog: "Start a meeting now"
 * (add-instant-meeting.php), "Call now" on a contact, and a channel's broadcast. Returns the row and
 * the generated password, which only the caller ever sees in plain text besides the host's views.
 */
export async function createInstantMeeting(
  db: Executor,
  request: InstantMeetingRequest,
): Promise<{ meeting: MeetingRow; password: string | undefined }> {
  const password = request.withPassword ? generateMeetingPassword() : undefined;
  const passwordHash = password ? await hashPassword(password) : null;
  const now = new Date();
  const window = request.window ?? {
    startTime: now,
    endTime: new Date(now.getTime() + INSTANT_MEETING_MINUTES * 60_000),
  };
  const repository = new MeetingRepository(db);
  let slug = request.slug ?? generateMeetingSlug();
  // A chosen link that is taken answers 409 (create); a generated one that collides is drawn again.
  for (let attempt = 0; request.slug === undefined && attempt < 5 && (await repository.isSlugTaken(slug)); attempt++) {
    slug = generateMeetingSlug();
  }
  const meeting = await repository.create({
    hostId: request.hostId,
    name: request.name,
    slug,
    description: request.description ?? '',
    isSchedule: request.window ? SCHEDULE_FLAG.scheduled : SCHEDULE_FLAG.instant,
    isPrivate: password ? PRIVACY.private : PRIVACY.public,
    isPassword: password ? PASSWORD_FLAG.yes : PASSWORD_FLAG.no,
    passwordHash,
    passwordPlain: password ?? null,
    ...window,
    repeat: REPEAT.none,
    timeZone: request.timeZone,
    channelId: request.channelId ?? null,
  });
  return { meeting, password };
}
