import { z } from 'zod';
import { BroadcastViewerSchema } from './broadcast-viewer.js';
import { BroadcastOverlaySchema } from './streaming.js';
import { text } from './fields.js';

/**
 * Push, don't poll (ADR 022): the studio, the composer's layout page and the channel page's player hear
 * of every change of a broadcast (its state, a destination's health, its overlay, its audience) on
 * this Socket.IO namespace, from whichever server process made it.
 */
export const BROADCAST_EVENTS_NAMESPACE = '/broadcast-events';
export const BROADCAST_EVENTS_PROTOCOL_VERSION = 1;
/** Socket.IO event name under which every BroadcastEvent travels. */
export const BROADCAST_EVENT = 'broadcast-event';

/**
 * Who listens to which meeting's broadcast: the same rule as `get-broadcast.php` (an open meeting's to
 * anyone; another's to its host's and invitees' accounts, by session token, and to a room grant).
 */
export const BroadcastEventsAuthSchema = z.object({
  protocol: z.number().int(),
  meetId: text({ max: 100 }),
  token: z.string().max(512).optional(),
  grant: z.string().max(512).optional(),
});
export type BroadcastEventsAuth = z.infer<typeof BroadcastEventsAuthSchema>;

export const BroadcastEventSchema = z.object({
  type: z.literal('broadcast.changed'),
  meeting_id: z.number().int(),
  broadcast_id: z.number().int(),
  /** What the channel page now plays, for an open meeting (null for another: ask get-broadcast.php). */
  viewer: BroadcastViewerSchema.nullable(),
  /**
   * Only to those who see the room (its managers and grants admitted to it, such as the composer's
   * layout page): the latest broadcast's overlay and who is on stage, as get-broadcast.php answers
   * them, so that a layout change reaches the picture without a second round trip (ADR 039).
   * Absent: ask get-broadcast.php.
   */
  overlay: BroadcastOverlaySchema.optional(),
  on_stage: z.array(z.string()).nullable().optional(),
});
export type BroadcastEvent = z.infer<typeof BroadcastEventSchema>;

/** Why a connection was refused, as the client reads it from the connect error's message. */
export const BroadcastEventsRefusalSchema = z.enum(['invalid_message', 'protocol_mismatch', 'not_found', 'forbidden']);
