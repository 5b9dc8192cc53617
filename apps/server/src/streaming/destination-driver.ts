import type { broadcastDestinations, streamConnections } from '@meetcast/db';
import type { MessageKey } from '../i18n/messages.js';

export type DestinationRow = typeof broadcastDestinations.$inferSelect;
export type ConnectionRow = typeof streamConnections.$inferSelect;

/**
 * A platform's part of one destination of a broadcast. The composer calls `prepare` before it pushes,
 * `goLive` once media flows, `status` every few seconds while live and `finish` when the destination ends.
 */
export interface DestinationDriver {
  /**
   * Makes what the platform needs (YouTube: broadcast + stream + bind; Twitch: stream key + channel
   * update; RTMP: nothing) and answers the full RTMP(S) address, key included, to push to. Ids the
   * platform hands out are stored on the destination row as soon as they exist, so that a retry
   * reuses them and never makes a second YouTube broadcast.
   */
  prepare(destination: DestinationRow): Promise<{ ingestUrl: string }>;
  /** Once the encode reaches the ingest: YouTube waits for `streamStatus: active` and moves to `live`. */
  goLive(destination: DestinationRow): Promise<void>;
  /** Platform figures while live: YouTube's `healthStatus.status`, Twitch's viewer count. */
  status(destination: DestinationRow): Promise<{ health?: string; viewers?: number }>;
  /** YouTube moves the broadcast to `complete`; the others have nothing to do. */
  finish(destination: DestinationRow): Promise<void>;
}

/** A failure a person can act on; `key` is a server message key shown as the destination's error. */
export class DestinationError extends Error {
  constructor(
    readonly key: MessageKey,
    /** False when retrying cannot help (revoked grant, missing connection): the destination fails at once. */
    readonly retryable = true,
  ) {
    super(key);
  }
}
