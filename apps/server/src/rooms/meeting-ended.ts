import type { AppContext } from '../context.js';

/** Told after a meeting was ended (or deleted) for everyone; the room tears down its live media here. */
export type MeetingEndedListener = (meetingId: number) => Promise<void> | void;

const listeners = new WeakMap<AppContext, MeetingEndedListener[]>();

/** The room feature registers its live teardown (close the Janus room, disconnect sockets) here. */
export function onMeetingEndedForEveryone(context: AppContext, listener: MeetingEndedListener) {
  listeners.set(context, [...(listeners.get(context) ?? []), listener]);
}

/** Runs the live teardown after the change is committed; one failing listener does not stop the others. */
export async function notifyMeetingsEnded(context: AppContext, meetingIds: number[]) {
  for (const meetingId of meetingIds) {
    for (const listener of listeners.get(context) ?? []) {
      try {
        await listener(meetingId);
      } catch (error) {
        context.log.error({ err: error, meetingId }, 'live teardown of an ended meeting failed');
      }
    }
  }
}
