import type { FastifyBaseLogger } from 'fastify';

/**
 * Told after a meeting's visibility or password changed: whoever watched it publicly before (its
 * broadcast's channel page) must not keep watching. The streaming feature ends that audience here.
 */
export type MeetingAudienceListener = (meetingId: number) => Promise<void> | void;

/** The listeners belong to one app: its context (any object with its log) is the key. */
type AudienceContext = { log: FastifyBaseLogger };

const listeners = new WeakMap<AudienceContext, MeetingAudienceListener[]>();

export function onMeetingAudienceChanged(context: AudienceContext, listener: MeetingAudienceListener) {
  listeners.set(context, [...(listeners.get(context) ?? []), listener]);
}

/** Runs after the change is committed; one failing listener does not stop the others. */
export async function notifyMeetingAudienceChanged(context: AudienceContext, meetingId: number) {
  for (const listener of listeners.get(context) ?? []) {
    try {
      await listener(meetingId);
    } catch (error) {
      context.log.error({ err: error, meetingId }, 'ending the public audience of a meeting failed');
    }
  }
}

/** Whether an edit changed who may watch the meeting: its visibility, or its password. */
export function changesAudience(
  before: { isPrivate: number; isPassword: number; passwordHash: string | null },
  after: { isPrivate: number; isPassword: number; passwordHash: string | null },
) {
  return (
    before.isPrivate !== after.isPrivate ||
    before.isPassword !== after.isPassword ||
    before.passwordHash !== after.passwordHash
  );
}
