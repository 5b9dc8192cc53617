import { z } from 'zod';
import { BroadcastChapterSchema } from './broadcast-followups.js';
import { PublicBroadcastStateSchema } from './broadcast-state.js';
import { nestedData } from './envelope.js';
import { LanguageFieldSchema, text } from './fields.js';
import { IceServersSchema } from './room.js';

/**
 * Watching a broadcast on its public channel page (ADR 011). Only public meetings without a
 * password are shown; the grant lets its holder watch that one broadcast for a minute's connect.
 */
export const BROADCAST_VIEWER_STATES = ['none', 'starting', 'live', 'ended', 'failed'] as const;
export type BroadcastViewerState = (typeof BROADCAST_VIEWER_STATES)[number];

export const GetBroadcastViewerInputSchema = z.object({
  /** The meeting's `url_slug`. */
  meetId: text({ max: 100 }),
  lng: LanguageFieldSchema,
});

export const BroadcastViewerSchema = z.object({
  broadcast_id: z.number().int().nullable(),
  state: z.enum(BROADCAST_VIEWER_STATES),
  started_at: z.number().int().nullable(),
  ended_at: z.number().int().nullable(),
  /** People watching over WebRTC now (null when unknown). */
  viewers: z.number().int().nullable(),
  /**
   * While live: the WebSocket path of our Janus proxy for viewers, with a short-lived grant, and the
   * STUN/TURN servers to reach Janus through (a viewer behind a strict NAT needs TURN as a caller does).
   */
  webrtc: z
    .object({ url: z.string(), grant: z.string(), expires_at: z.number().int(), ice_servers: IceServersSchema })
    .nullable(),
  /** While live: the HLS playlist, for browsers WebRTC cannot reach. */
  hls_url: z.string().nullable(),
  /** Once ended: the recording, when the broadcast was recorded. */
  recording: z
    .object({
      url: z.string(),
      duration: z.number(),
      /** The replay's chapters, in order (ADR 048): layout changes and screen shares started or stopped. */
      chapters: z.array(BroadcastChapterSchema).optional(),
    })
    .nullable(),
  /** What the public sees, the same on every page (ADR 022): upcoming, live, replay or ended. */
  public_state: PublicBroadcastStateSchema,
});
export type BroadcastViewer = z.infer<typeof BroadcastViewerSchema>;
export const BroadcastViewerBodySchema = nestedData(BroadcastViewerSchema);

/**
 * The studio's preview (ADR 047): what the host or a co-host needs to watch their own running
 * broadcast's encoded output from the same mountpoint the public watches, whatever the meeting's
 * visibility. The grant is a preview grant: it opens only this broadcast's mountpoint, for a minute's connect.
 */
export const BroadcastPreviewSchema = z.object({
  url: z.string(),
  grant: z.string(),
  expires_at: z.number().int(),
  ice_servers: IceServersSchema,
});
export type BroadcastPreview = z.infer<typeof BroadcastPreviewSchema>;
export const BroadcastPreviewBodySchema = nestedData(BroadcastPreviewSchema);
