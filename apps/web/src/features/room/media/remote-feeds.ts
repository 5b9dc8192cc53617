import { parseFeedDisplay } from '@meetcast/contracts';
import type { FeedKind, Publisher, RemoteFeed, StreamInfo } from './media-types';

/**
 * A remote track came or went: keep one MediaStream per feed with at most one track of each kind.
 * The stream object is replaced on every change so that React sees a new value and video elements
 * pick the tracks up again; a feed without tracks is dropped.
 */
export function updateFeedTracks(
  feeds: Map<number, RemoteFeed>,
  owner: { feedId: number; participantId: string; kind: FeedKind },
  track: MediaStreamTrack,
  isOn: boolean,
) {
  let feed = feeds.get(owner.feedId);
  if (isOn) {
    if (!feed) {
      feed = { ...owner, stream: new MediaStream() };
      feeds.set(owner.feedId, feed);
    }
    for (const old of feed.stream.getTracks().filter((t) => t.kind === track.kind && t.id !== track.id)) {
      feed.stream.removeTrack(old);
    }
    if (!feed.stream.getTrackById(track.id)) feed.stream.addTrack(track);
    feed.stream = new MediaStream(feed.stream.getTracks());
  } else if (feed) {
    feed.stream.removeTrack(track);
    if (feed.stream.getTracks().length === 0) feeds.delete(owner.feedId);
    else feed.stream = new MediaStream(feed.stream.getTracks());
  }
}

/** The subscription mids that carry a feed's video (one per simulcast subscription). */
export function videoMidsOf(streams: Map<string, StreamInfo>, feedId: number): string[] {
  return [...streams.values()].filter((s) => s.feed_id === feedId && s.type === 'video').map((s) => s.mid);
}

/**
 * Notes whose feed each publisher Janus listed is (its display, which the proxy set), and answers the
 * feeds of others that `isSubscribed` does not have yet: those to subscribe to.
 */
export function recordPublishers(
  owners: Map<number, { participantId: string; kind: FeedKind }>,
  list: Publisher[],
  self: string,
  isSubscribed: (feedId: number) => boolean,
): number[] {
  const fresh: number[] = [];
  for (const publisher of list) {
    const owner = parseFeedDisplay(publisher.display);
    if (!owner) continue;
    owners.set(publisher.id, owner);
    if (owner.participantId !== self && !isSubscribed(publisher.id)) fresh.push(publisher.id);
  }
  return fresh;
}

/** Participants whose camera is on (`expected`, since when) but who have no camera feed among `publishers`. */
export function missingCameraFeeds(
  publishers: Iterable<{ participantId: string; kind: FeedKind }>,
  expected: Map<string, number>,
  self: string,
  joinedAt: number | undefined,
) {
  if (joinedAt === undefined) return [];
  const withCamera = new Set([...publishers].filter((o) => o.kind === 'camera').map((o) => o.participantId));
  return [...expected]
    .filter(([id]) => id !== self && !withCamera.has(id))
    .map(([participantId, since]) => ({ participantId, since: Math.max(since, joinedAt) }));
}

/** How often, and for how long, a new video track's receiver is asked whether it decoded a frame. */
const DECODE_POLL_MS = 25;
const DECODE_WAIT_MS = 2000;

/**
 * Resolves once the receiver of this video track has decoded its first frame (or after two seconds).
 * A track unmutes with its first packets, often a few hundred ms before the keyframe that makes a
 * picture: what waits for the picture (the room connection, ADR 016) must wait for the frame.
 */
export async function firstFrameDecoded(pc: RTCPeerConnection | undefined, track: MediaStreamTrack): Promise<void> {
  const receiver = pc?.getReceivers().find((r) => r.track === track);
  const giveUpAt = performance.now() + DECODE_WAIT_MS;
  while (receiver && performance.now() < giveUpAt) {
    const report = await receiver.getStats().catch(() => undefined);
    let isDecoded = false;
    report?.forEach((entry: { type?: string; framesDecoded?: number }) => {
      if (entry.type === 'inbound-rtp' && (entry.framesDecoded ?? 0) > 0) isDecoded = true;
    });
    if (isDecoded) return;
    await new Promise((resolve) => setTimeout(resolve, DECODE_POLL_MS));
  }
}
