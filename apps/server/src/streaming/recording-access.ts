import { timingSafeEqual } from 'node:crypto';
import { PASSWORD_FLAG, PRIVACY } from '@meetcast/contracts';
import { eq, users, type MeetingRow, type UserRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import type { AppConfig } from '../env.js';
import { secretsBoxFor } from '../platform/secrets-box.js';
import { isHostOrInvited } from '../rooms/room-service.js';

type KeyConfig = Pick<AppConfig, 'dataDir' | 'streaming'>;

/**
 * A signed recording address stays the same for this long (a page that asks again gets the same one, so
 * a playing video is not reloaded) and works for one more such span: between 6 and 12 hours.
 */
const ACCESS_WINDOW_SECONDS = 6 * 3600;
const ACCESS_PATTERN = /^(\d{1,10})\.(\d{1,12})\.([0-9a-f]{32})$/;

/** Public and without a password: its broadcast is the channel page's, its recording the page's replay. */
export const isOpenMeeting = (meeting: MeetingRow) =>
  meeting.isPrivate !== PRIVACY.private && meeting.isPassword !== PASSWORD_FLAG.yes;

/** Who may fetch a meeting's recordings: anyone (an open meeting), one account (its host or an invitee), or nobody. */
export type RecordingReader = { kind: 'anyone' } | { kind: 'account'; userId: number } | { kind: 'nobody' };

export async function recordingReader(
  context: AppContext,
  meeting: MeetingRow,
  user: UserRow | undefined,
): Promise<RecordingReader> {
  if (isOpenMeeting(meeting)) return { kind: 'anyone' };
  if (user && (await isHostOrInvited(context, meeting, user))) return { kind: 'account', userId: user.id };
  return { kind: 'nobody' };
}

/**
 * The address a reader fetches a recording at: the bare one for an open meeting's; for anyone else's,
 * one signed for that account (`?access={user}.{expiry}.{mac}`), because a video element cannot send
 * the session token and the file route must still know who is asking.
 */
export function recordingLink(config: KeyConfig, file: string, reader: RecordingReader, nowMs = Date.now()) {
  if (reader.kind === 'nobody') return null;
  const address = `/api/recordings/${file}`;
  if (reader.kind === 'anyone') return address;
  const expiresAt = (Math.floor(nowMs / 1000 / ACCESS_WINDOW_SECONDS) + 2) * ACCESS_WINDOW_SECONDS;
  const signed = `${reader.userId}.${expiresAt}`;
  return `${address}?access=${signed}.${signAccess(config, file, signed)}`;
}

const signAccess = (config: KeyConfig, file: string, signed: string) =>
  secretsBoxFor(config).sign('recording-access', `${file}.${signed}`);

/** The account a current, untampered access value for this file names; undefined otherwise. */
export function readRecordingAccess(config: KeyConfig, file: string, access: unknown, nowMs = Date.now()) {
  const match = typeof access === 'string' ? ACCESS_PATTERN.exec(access) : null;
  if (!match) return undefined;
  const [, userId, expiresAt, mac] = match;
  if (Number(expiresAt) * 1000 < nowMs) return undefined;
  const expected = Buffer.from(signAccess(config, file, `${userId}.${expiresAt}`));
  return timingSafeEqual(expected, Buffer.from(mac!)) ? Number(userId) : undefined;
}

/**
 * Whether a request for a recording of this meeting is answered: an open meeting's to anyone, another's
 * only at an address signed for an account that is still enabled and still the host or an invitee.
 */
export async function mayFetchRecording(context: AppContext, meeting: MeetingRow, file: string, access: unknown) {
  if (isOpenMeeting(meeting)) return true;
  const userId = readRecordingAccess(context.config, file, access);
  if (userId === undefined) return false;
  const [user] = await context.db.select().from(users).where(eq(users.id, userId));
  return Boolean(user && !user.disabledAt && (await isHostOrInvited(context, meeting, user)));
}
