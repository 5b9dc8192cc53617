import type { DestinationRow } from '@meetcast/db';
import type { MessageKey } from '../i18n/messages.js';

/** What a platform names its side of a destination by (YouTube's broadcast and stream). */
export type PlatformIds = Partial<Pick<DestinationRow, 'externalBroadcastId' | 'externalStreamId'>>;

/**
 * A platform's part of one destination of a broadcast. The composer calls `prepare` before it pushes,
 * `goLive` once media flows, `status` every few seconds while live and `finish` when the destination ends.
 */
export interface DestinationDriver {
  /**
   * Makes what the platform needs (YouTube: broadcast + stream + bind; Twitch: stream key + channel
   * update; RTMP: nothing) and answers the full RTMP(S) address, key included, to push to, with the
   * ids the platform handed out. A driver writes no row: its caller stores the ids (also those a
   * failed attempt carries, `DestinationError.ids`), so a retry reuses them and never makes a second
   * YouTube broadcast.
   */
  prepare(destination: DestinationRow): Promise<{ ingestUrl: string; ids?: PlatformIds }>;
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
    /** Ids the platform handed out before the attempt failed: the next one reuses them. */
    readonly ids: PlatformIds = {},
  ) {
    super(key);
  }
}
