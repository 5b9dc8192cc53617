import { JoinRoomOutputSchema } from '@meetcast/contracts';
import type { Joined } from './pre-join';

/**
 * The join (grant and display name) is kept for this tab only (sessionStorage): a reload during the
 * call goes straight back in with the same grant, without the pre-join screen or the password; a
 * new tab or another person on the computer starts from the pre-join screen as before.
 */
const JoinedSchema = JoinRoomOutputSchema.shape.data;
const joinedKey = (meetId: string) => `meetcast.room.${meetId}`;
const nameKey = (meetId: string) => `meetcast.room.${meetId}.name`;

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

export function rememberJoined(meetId: string, joined: Joined) {
  try {
    storage()?.setItem(joinedKey(meetId), JSON.stringify(joined));
    storage()?.setItem(nameKey(meetId), joined.display_name);
  } catch {
    // A full or blocked storage only costs the rejoin after a reload.
  }
}

export function recallJoined(meetId: string): Joined | undefined {
  try {
    const raw = storage()?.getItem(joinedKey(meetId));
    const parsed = raw ? JoinedSchema.safeParse(JSON.parse(raw)) : undefined;
    return parsed?.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The grant is forgotten (left, or refused); the name stays for the next join from this tab. */
export function forgetJoined(meetId: string) {
  storage()?.removeItem(joinedKey(meetId));
}

export function recallName(meetId: string): string {
  return storage()?.getItem(nameKey(meetId)) ?? '';
}
