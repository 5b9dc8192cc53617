import { randomInt } from 'node:crypto';
import { PASSWORD_FLAG, PRIVACY, SCHEDULE_FLAG } from '@meetcast/contracts';
import { eq, meetings } from '@meetcast/db';
import { hashPassword } from '../accounts/secrets.js';
import type { AppContext } from '../context.js';

const LETTERS = 'abcdefghijkmnopqrstuvwxyz';

function randomLetters(length: number) {
  return Array.from({ length }, () => LETTERS[randomInt(0, LETTERS.length)]).join('');
}

/** `abc-defg-hij`: easy to read aloud, and inside the meeting slug rules (lower-case, hyphens). */
export function generateMeetingSlug() {
  return `${randomLetters(3)}-${randomLetters(4)}-${randomLetters(3)}`;
}

export interface NewMeeting {
  hostId: number;
  name: string;
  description?: string;
  isSchedule: boolean;
  startTime: Date;
  endTime: Date;
  timeZone: string;
  channelId?: number | null;
  /** A generated password for a private meeting, or none for a public one. */
  withPassword?: boolean;
}

/**
 * The one place this feature creates a meeting (Call now, broadcasts scheduled from a channel).
 * It writes the row the meetings feature reads; when that feature's service exists, this function
 * becomes a call to it.
 */
export async function createMeetingRow(context: AppContext, input: NewMeeting) {
  const password = input.withPassword ? String(randomInt(100_000, 1_000_000)) : undefined;
  const passwordHash = password ? await hashPassword(password) : null;
  for (let attempt = 0; ; attempt++) {
    const slug = generateMeetingSlug();
    const taken = await context.db.select({ id: meetings.id }).from(meetings).where(eq(meetings.slug, slug)).limit(1);
    if (taken.length > 0 && attempt < 5) continue;
    const [row] = await context.db
      .insert(meetings)
      .values({
        hostId: input.hostId,
        name: input.name,
        slug,
        description: input.description ?? '',
        isSchedule: input.isSchedule ? SCHEDULE_FLAG.scheduled : SCHEDULE_FLAG.instant,
        isPrivate: password ? PRIVACY.private : PRIVACY.public,
        isPassword: password ? PASSWORD_FLAG.yes : PASSWORD_FLAG.no,
        passwordHash,
        passwordPlain: password ?? null,
        startTime: input.startTime,
        endTime: input.endTime,
        timeZone: input.timeZone,
        channelId: input.channelId ?? null,
      })
      .returning();
    if (!row) throw new Error('meeting insert returned nothing');
    return { meeting: row, password };
  }
}
