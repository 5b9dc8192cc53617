import type { FeedKind, RemoteFeed, StreamInfo } from './media-types';

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
