/** The vocabulary of room media: feeds, statuses, what Janus tells about streams, and inbound figures. */
import type { FeedKind } from '@meetcast/contracts';
import type { FeedHealth } from './media-watchdog';
export type { FeedKind } from '@meetcast/contracts';
export type MediaStatus = 'connecting' | 'connected' | 'reconnecting' | 'failed';
export type Quality = 'good' | 'fair' | 'poor';

export interface RemoteFeed {
  feedId: number;
  participantId: string;
  kind: FeedKind;
  stream: MediaStream;
}

export interface RoomMediaListener {
  onStatus(status: MediaStatus): void;
  onFeeds(feeds: RemoteFeed[]): void;
  onTalking(participantId: string, isTalking: boolean): void;
  /** Feeds (by participant; our own id for our camera) that the watchdog is repairing or gave up on. */
  onHealth(health: Record<string, FeedHealth>): void;
}

export interface StreamInfo {
  mid: string;
  type: string;
  feed_id?: number;
  feed_display?: string;
  active?: boolean;
}

export interface Publisher {
  id: number;
  display?: string;
}

/**
 * How long media keeps rejoining by itself after its connection is lost: the server's default
 * reconnect grace (ADR 032), so a laptop that slept or a network that changed comes back without a click.
 */
export const REJOIN_WINDOW_MS = 120_000;
export const isDebug = () => {
  try {
    return window.localStorage.getItem('meetcast.debug') === '1';
  } catch {
    return false;
  }
};
export const debug = (...args: unknown[]) => {
  // The page's own clock: a test reading the console later (on a loaded machine) sees when it happened.
  if (isDebug()) console.debug('[room-media]', new Date().toISOString().slice(11, 23), ...args);
};

/** Settles when `promise` does (either way), or after `ms`, whichever comes first. */
export function atMost(promise: Promise<unknown>, ms: number): Promise<void> {
  const settled = promise.then(
    () => undefined,
    () => undefined,
  );
  return Promise.race([settled, new Promise<void>((resolve) => setTimeout(resolve, ms))]);
}

export interface InboundVideo {
  feedId: number;
  participantId: string;
  framesDecoded: number;
  packetsLost: number;
  packetsReceived: number;
  framesPerSecond: number;
}

/** Inbound video figures of a subscriber connection, per feed that `ownerOf` recognises by its mid. */
export async function inboundVideoStats(
  pc: RTCPeerConnection | undefined,
  ownerOf: (mid: string) => { feedId: number; participantId: string } | undefined,
): Promise<InboundVideo[]> {
  if (!pc) return [];
  const report = await pc.getStats();
  const result: InboundVideo[] = [];
  report.forEach((entry: RTCInboundRtpStreamStats & { mid?: string; type: string }) => {
    if (entry.type !== 'inbound-rtp' || entry.kind !== 'video' || entry.mid === undefined) return;
    const owner = ownerOf(entry.mid);
    if (!owner) return;
    result.push({
      ...owner,
      framesDecoded: entry.framesDecoded ?? 0,
      packetsLost: entry.packetsLost ?? 0,
      packetsReceived: entry.packetsReceived ?? 0,
      framesPerSecond: entry.framesPerSecond ?? 0,
    });
  });
  return result;
}

/** The tracks a participant sends, read when they are published. */
export type LocalTracks = { audio: () => MediaStreamTrack | undefined; video: () => MediaStreamTrack | undefined };

/** Keeps the latest status, feeds and health for the page that will show them; talking is momentary. */
export class LatestUntilHeard implements RoomMediaListener {
  private latest: { status?: MediaStatus; feeds?: RemoteFeed[]; health?: Record<string, FeedHealth> } = {};
  onStatus(status: MediaStatus) {
    this.latest.status = status;
  }
  onFeeds(feeds: RemoteFeed[]) {
    this.latest.feeds = feeds;
  }
  onHealth(health: Record<string, FeedHealth>) {
    this.latest.health = health;
  }
  onTalking() {}
  replay(listener: RoomMediaListener) {
    const { status, feeds, health } = this.latest;
    if (status) listener.onStatus(status);
    if (feeds) listener.onFeeds(feeds);
    if (health) listener.onHealth(health);
  }
}
