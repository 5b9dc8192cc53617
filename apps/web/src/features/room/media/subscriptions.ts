import { parseFeedDisplay } from '@meetcast/contracts';
import {
  answer,
  attachVideoRoom,
  peerConnection,
  type HandleCallbacks,
  type JanusMessage,
  type JanusSession,
  type Jsep,
  type PluginHandle,
  type RoutedHandle,
  SUBSCRIBER_TRACKS,
} from './janus-api';
import type { WatchedFeed } from './media-watchdog';
import {
  debug,
  inboundVideoStats,
  type FeedKind,
  type InboundVideo,
  type RemoteFeed,
  type StreamInfo,
} from './media-types';
import { firstFrameDecoded, updateFeedTracks, videoMidsOf } from './remote-feeds';

const NEGOTIATION_TIMEOUT_MS = 8000;
/** Janus VideoRoom's error for a feed that is not (or no longer) published. */
const VIDEOROOM_NO_SUCH_FEED = 428;

export interface SubscriptionsContext {
  session: JanusSession;
  ownerOf(feedId: number): { participantId: string; kind: FeedKind } | undefined;
  feeds: Map<number, RemoteFeed>;
  onFeedsChanged(): void;
  onIce(state: 'connected' | 'failed'): void;
  /** The first remote picture was decoded (or, from a feed without video, its sound arrived). */
  onFirstPicture(): void;
  onSignallingLost(): void;
}

/**
 * One multi-stream subscriber handle for everyone else's feeds, for one Janus session: it dies with
 * the session (`close`), and a rejoin builds a new one. Negotiations are serialized: each waits for
 * the previous one to finish.
 */
export class Subscriptions {
  private handle: PluginHandle | undefined;
  private readonly streams = new Map<string, StreamInfo>();
  private readonly subscribed = new Set<number>();
  /** When Janus was told to start sending each feed: the watchdog counts from there. */
  private readonly startedAt = new Map<number, number>();
  /** When we asked Janus for each feed: an ask Janus never answered with an offer is watched too. */
  private readonly askedAt = new Map<number, number>();
  private readonly layers = new Map<number, number>();
  private queue: Promise<unknown> = Promise.resolve();
  /** The handle attached ahead of the first subscription (`prepare`). */
  private prepared: Promise<PluginHandle> | undefined;
  /** The feeds of the request Janus has not answered yet, and whether it was the handle's join. */
  private asking: { feeds: number[]; isJoin: boolean } | undefined;
  /** Janus refused the handle's join: the next request joins again instead of adding streams. */
  private isJoinRefused = false;
  private resolveNegotiation: (() => void) | undefined;
  private isOpen = true;
  /**
   * What Janus said to the handle before we asked anything: the answer to the join the proxy sent
   * for us (ADR 016) can reach the handle before the publisher's `joined` that makes us wait for it.
   */
  private unasked: 'offer' | 'refusal' | undefined;
  /** An ICE restart waits for Janus' offer. */
  private onOffer: (() => void) | undefined;
  /** Feeds whose sound stopped (their publisher cut off): when it comes back, so must their picture. */
  private readonly silent = new Set<number>();

  constructor(private readonly context: SubscriptionsContext) {}

  has(feedId: number) {
    return this.subscribed.has(feedId);
  }

  get isEmpty() {
    return this.subscribed.size === 0;
  }

  /** `isJoinedByProxy`: the proxy already sent this handle's join for these feeds (ADR 016). */
  subscribe(feedIds: number[], isJoinedByProxy = false) {
    for (const id of feedIds) this.subscribed.add(id);
    this.negotiate(async (handle) => {
      // A feed forgotten meanwhile (it left) is not asked for: Janus would refuse the whole request.
      const feeds = feedIds.filter((id) => this.subscribed.has(id));
      if (feeds.length === 0) return this.resolveNegotiation?.();
      for (const id of feeds) this.askedAt.set(id, Date.now());
      const streams = feeds.map((feed) => ({ feed }));
      this.asking = { feeds, isJoin: !handle || this.isJoinRefused };
      if (handle && !this.isJoinRefused) return handle.send({ message: { request: 'subscribe', streams } });
      this.isJoinRefused = false;
      this.handle = handle ?? (await (this.prepared ?? this.attach()));
      const unasked = this.unasked;
      this.unasked = undefined;
      if (isJoinedByProxy && unasked !== 'refusal') {
        // Its offer is on its way, or has been answered already.
        if (unasked === 'offer') this.resolveNegotiation?.();
        return;
      }
      this.handle.send({ message: { request: 'join', ptype: 'subscriber', streams, use_msid: true } });
    });
  }

  /**
   * Attaches the handle now, beside the publisher's, so that the first subscription only joins;
   * resolves with Janus' id of the handle (none if the attach failed), which a publisher join may
   * name for the proxy to subscribe it on `joined` (ADR 016).
   */
  prepare(): Promise<number | undefined> {
    this.prepared ??= this.attach();
    // A failed attach is reported by the subscription that awaits it.
    return this.prepared.then(
      (handle) => Number(handle.getId()),
      () => undefined,
    );
  }

  /** Takes the handle the pre-join screen attached (ADR 016) as this subscription's. */
  adopt(routed: RoutedHandle) {
    this.prepared ??= routed.route((handle) => this.callbacks(() => handle));
    this.prepared.catch(() => undefined);
  }

  forget(feedId: number) {
    this.subscribed.delete(feedId);
    this.silent.delete(feedId);
    this.startedAt.delete(feedId);
    this.askedAt.delete(feedId);
  }

  /** Drops a feed's subscription and takes it again: new m-lines, new tracks, a fresh start. */
  resubscribe(feedId: number) {
    if (!this.subscribed.has(feedId) || !this.handle) return;
    this.negotiate((handle) => handle?.send({ message: { request: 'unsubscribe', streams: [{ feed: feedId }] } }));
    this.negotiate((handle) => {
      this.startedAt.delete(feedId);
      this.askedAt.set(feedId, Date.now());
      this.layers.delete(feedId);
      handle?.send({ message: { request: 'subscribe', streams: [{ feed: feedId }] } });
    });
  }

  /**
   * Asks Janus for a keyframe of this feed. Janus 1.1 has no keyframe request for subscribers, but a
   * simulcast layer switch always asks the publisher for one (PLI): a neighbouring layer, then back.
   * The browser also sends its own PLI for any frame it cannot decode.
   */
  requestKeyframe(feedId: number) {
    const layer = this.layers.get(feedId) ?? 2;
    const mids = videoMidsOf(this.streams, feedId);
    const other = layer === 0 ? 1 : layer - 1;
    this.configure(mids.map((mid) => ({ mid, substream: other })));
    this.configure(mids.map((mid) => ({ mid, substream: layer })));
  }

  /**
   * Asks Janus for an ICE restart: it answers with an offer carrying new ICE credentials. Resolves
   * whether that offer came within `waitMs`: a subscription Janus still holds an unanswered offer
   * for (sent while our connection was cut) gets none.
   */
  restartIce(waitMs = NEGOTIATION_TIMEOUT_MS): Promise<boolean> {
    const handle = this.handle;
    if (!handle) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.onOffer = undefined;
        resolve(false);
      }, waitMs);
      this.onOffer = () => {
        clearTimeout(timer);
        resolve(true);
      };
      handle.send({ message: { request: 'configure', restart: true } });
    });
  }

  /** For tests: Janus stops forwarding this feed's video to us while its publisher goes on sending. */
  stopForwarding(feedId: number) {
    this.configure(videoMidsOf(this.streams, feedId).map((mid) => ({ mid, send: false })));
  }

  /**
   * Asks for the simulcast layer that fits a tile: 2 = full, 0 = smallest. A new subscription already
   * targets the full layer in Janus: asking for it again before the first frame made Janus request a
   * keyframe while the connection was not up yet, and the picture waited ~200 ms for the next one.
   */
  preferLayer(feedId: number, substream: 0 | 1 | 2) {
    if ((this.layers.get(feedId) ?? 2) === substream) return;
    const mids = videoMidsOf(this.streams, feedId);
    if (!this.handle || mids.length === 0) return;
    this.layers.set(feedId, substream);
    this.configure(mids.map((mid) => ({ mid, substream })));
  }

  /**
   * Camera feeds whose owner is expected to send video, with their video mids. A feed we asked for
   * that no offer of Janus has carried within the negotiation timeout is watched with no mids: it
   * shows no frames, so the watchdog repairs it like any other instead of waiting for it forever.
   */
  watched(expectedSince: (participantId: string) => number | undefined): WatchedFeed[] {
    const result: WatchedFeed[] = [];
    const now = Date.now();
    for (const feedId of this.subscribed) {
      const owner = this.context.ownerOf(feedId);
      const asked = this.askedAt.get(feedId);
      const overdue = asked !== undefined && now - asked > NEGOTIATION_TIMEOUT_MS ? asked : undefined;
      const started = this.startedAt.get(feedId) ?? overdue;
      const since = owner && expectedSince(owner.participantId);
      const mids = videoMidsOf(this.streams, feedId);
      if (!owner || owner.kind !== 'camera' || started === undefined || since === undefined) continue;
      if (!mids.length && this.startedAt.has(feedId)) continue;
      result.push({ feedId, participantId: owner.participantId, mids, startedAt: Math.max(started, since) });
    }
    return result;
  }

  connection() {
    return peerConnection(this.handle);
  }

  inboundVideo(): Promise<InboundVideo[]> {
    return inboundVideoStats(this.connection(), (mid) => {
      const feedId = this.streams.get(mid)?.feed_id;
      const owner = feedId === undefined ? undefined : this.context.ownerOf(feedId);
      return feedId === undefined || !owner ? undefined : { feedId, participantId: owner.participantId };
    });
  }

  /** `detach`: the session lives on (a resumed one), so the handle is let go of here. */
  close(options: { detach?: boolean } = {}) {
    this.isOpen = false;
    this.resolveNegotiation?.();
    if (options.detach) this.handle?.detach();
  }

  private configure(streams: Record<string, unknown>[]) {
    if (this.handle && streams.length) this.handle.send({ message: { request: 'configure', streams } });
  }

  private negotiate(step: (handle: PluginHandle | undefined) => unknown) {
    this.queue = this.queue
      .then(async () => {
        if (!this.isOpen) return;
        const done = new Promise<void>((resolve) => {
          this.resolveNegotiation = resolve;
          setTimeout(resolve, NEGOTIATION_TIMEOUT_MS);
        });
        await step(this.handle);
        await done;
      })
      .catch(() => this.isOpen && this.context.onSignallingLost());
  }

  private attach() {
    let attached: PluginHandle | undefined;
    return attachVideoRoom(
      this.context.session,
      this.callbacks(() => attached),
    ).then((handle) => (attached = handle));
  }

  private callbacks(handleOf: () => PluginHandle | undefined): HandleCallbacks {
    return {
      onmessage: (message, jsep, isAnswered) => {
        const handle = handleOf();
        if (this.isOpen && handle) void this.onMessage(handle, message, jsep, isAnswered);
      },
      onremotetrack: (track, mid, on) => {
        if (this.isOpen) this.onRemoteTrack(track, mid, on);
      },
      iceState: (state) => {
        debug('subscriber ice', state);
        if (this.isOpen && (state === 'connected' || state === 'failed')) this.context.onIce(state);
      },
    };
  }

  private async onMessage(handle: PluginHandle, message: JanusMessage, jsep?: Jsep, isAnswered = false) {
    debug('subscriber', JSON.stringify(message), Boolean(jsep));
    const streams = message.streams as StreamInfo[] | undefined;
    if (streams) {
      this.streams.clear();
      for (const stream of streams) this.streams.set(stream.mid, stream);
    }
    if (jsep || isAnswered) {
      if (jsep) {
        this.onOffer?.();
        this.onOffer = undefined;
        const local = await answer(handle, jsep, SUBSCRIBER_TRACKS);
        handle.send({ message: { request: 'start' }, jsep: local });
      }
      const now = Date.now();
      for (const stream of this.streams.values()) {
        const feedId = stream.feed_id;
        if (feedId !== undefined && !this.startedAt.has(feedId)) this.startedAt.set(feedId, now);
      }
      this.asking = undefined;
      if (!this.handle) this.unasked = 'offer';
      this.resolveNegotiation?.();
    } else if (message.error_code) {
      this.onRefused(Number(message.error_code), String(message.error ?? ''));
    }
  }

  /**
   * Janus refuses a whole join or subscribe when one of its feeds is gone (it left between Janus'
   * list and our request, or its publisher's connection is not up): without that feed, the rest is
   * asked for again at once, instead of waiting for the watchdog (a refused join left the handle
   * outside the room, and every later request with it).
   */
  private onRefused(code: number, reason: string) {
    const asked = this.asking;
    if (!asked && !this.handle) this.unasked = 'refusal';
    this.asking = undefined;
    if (asked?.isJoin) this.isJoinRefused = true;
    this.resolveNegotiation?.();
    const gone = code === VIDEOROOM_NO_SUCH_FEED ? Number(/\((\d+)\)/.exec(reason)?.[1]) : Number.NaN;
    if (!asked || !asked.feeds.includes(gone)) return;
    this.forget(gone);
    const rest = asked.feeds.filter((id) => id !== gone && this.subscribed.has(id));
    if (rest.length > 0) this.subscribe(rest);
  }

  private onRemoteTrack(track: MediaStreamTrack, mid: string, on: boolean) {
    debug('remote track', mid, track.kind, on);
    const info = this.streams.get(mid);
    const feedId = info?.feed_id;
    if (feedId === undefined) return;
    const owner = this.context.ownerOf(feedId) ?? parseFeedDisplay(info?.feed_display);
    if (!owner) return;
    updateFeedTracks(this.context.feeds, { feedId, ...owner }, track, on);
    this.context.onFeedsChanged();
    if (on) this.watchFirstPicture(track, feedId);
    if (track.kind === 'audio') this.onSound(feedId, on);
  }

  /**
   * A feed's sound back after it stopped: its publisher is back from a cut, and its picture waits for a
   * keyframe. The one the publisher sends on coming back can go to a simulcast layer this subscription
   * no longer receives (the sender's bandwidth estimate starts low again), so we ask for ours.
   */
  private onSound(feedId: number, isOn: boolean) {
    if (!isOn) this.silent.add(feedId);
    else if (this.silent.delete(feedId)) this.requestKeyframe(feedId);
  }

  /** The first decoded frame of anyone's video; sound counts only from a feed that sends no video. */
  private watchFirstPicture(track: MediaStreamTrack, feedId: number) {
    if (track.kind === 'audio' && videoMidsOf(this.streams, feedId).length > 0) return;
    const onPicture = () => {
      if (track.kind === 'audio') this.context.onFirstPicture();
      else void firstFrameDecoded(this.connection(), track).then(() => this.context.onFirstPicture());
    };
    // A remote track is muted until its first packets arrive.
    if (!track.muted) onPicture();
    else track.addEventListener('unmute', onPicture, { once: true });
  }
}
