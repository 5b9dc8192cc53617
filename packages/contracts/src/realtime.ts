import { z } from 'zod';
import { NotificationSchema } from './notifications.js';

/** Bumped when a message changes shape; clients that differ are told to reload. */
export const REALTIME_PROTOCOL_VERSION = 1;

/** Named reasons a realtime connection or request is refused. */
export const RealtimeErrorReasonSchema = z.enum(['unauthorized', 'protocol_mismatch', 'invalid_message', 'forbidden']);
export type RealtimeErrorReason = z.infer<typeof RealtimeErrorReasonSchema>;

export const RealtimeAuthSchema = z.object({
  token: z.string().max(512).optional(),
  protocol: z.number().int(),
});
export type RealtimeAuth = z.infer<typeof RealtimeAuthSchema>;

/** Messages the server pushes to a signed-in user's own channel, keyed on `type`. */
export const UserEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('notification.created'), notification: NotificationSchema }),
  z.object({ type: z.literal('session.revoked') }),
]);
export type UserEvent = z.infer<typeof UserEventSchema>;

/** Socket.IO event name under which every UserEvent travels. */
export const USER_EVENT = 'user-event';
