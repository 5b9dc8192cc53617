import { JANUS_PATH } from '@meetcast/contracts';
import {
  answer,
  attachVideoRoom,
  createSession,
  initJanus,
  offer,
  peerConnection,
  replaceTracks,
  switchVideoTrack,
  type JanusMessage,
  type JanusSession,
  type Jsep,
  type PluginHandle,
} from './janus-api';

import {
  debug,
  inboundVideoStats,
  parseDisplay,
  REJOIN_WINDOW_MS,
  type FeedKind,
  type InboundVideo,
  type MediaStatus,
  type Publisher,
  type RemoteFeed,
  type RoomMediaListener,
  type StreamInfo,
} from './media-types';
import { updateFeedTracks, videoMidsOf } from './remote-feeds';

/**
 * One participant's media in a meeting, over janus.js: a publisher handle for the camera and
 * microphone, one for a screen share, and one multi-stream subscriber handle for everyone else.
 * It restarts ICE when the network blips and rejoins from scratch when the signalling connection
 * is lost, for up to 30 seconds.
 */
export class RoomMedia {
  private session: JanusSession | undefined;
  private publisher: PluginHandle | undefined;
  private screen: PluginHandle | undefined;
  private subscriber: PluginHandle | undefined;
  private subscriberReady: Promise<void> | undefined;
  private readonly streams = new Map<string, StreamInfo>();
  private readonly feeds = new Map<number, RemoteFeed>();
  private readonly publishers = new Map<number, { participantId: string; kind: FeedKind }>();
  private subscribed = new Set<number>();
  private queue: Promise<unknown> = Promise.resolve();
  private status: MediaStatus = 'connecting';
  private troubleSince: number | undefined;
  private iceTimer: ReturnType<typeof setTimeout> | undefined;
  private isClosed = false;
  private generation = 0;

  constructor(
    private readonly options: {
      grant: string;
      room: number;
      iceServers: RTCIceServer[];
      participantId: string;
      listener: RoomMediaListener;
    },
    private readonly local: { audio: () => MediaStreamTrack | undefined; video: () => MediaStreamTrack | undefined },
  ) {}

  private setStatus(status: MediaStatus) {
    if (this.status === status) return;
    this.status = status;
    this.options.listener.onStatus(status);
  }

  private emitFeeds() {
    this.options.listener.onFeeds([...this.feeds.values()]);
  }

  private serverUrl() {
    const origin = window.location.origin.replace(/^http/, 'ws');
    return `${origin}${JANUS_PATH}?grant=${encodeURIComponent(this.options.grant)}`;
  }

  async start(): Promise<void> {
    await initJanus();
    const generation = ++this.generation;
    this.session = await createSession(this.serverUrl(), this.options.iceServers, () => {
      if (generation === this.generation) this.onTrouble('signalling');
    });
    this.publisher = await this.attachPublisher('camera', generation);
    this.publisher.send({ message: { request: 'join', ptype: 'publisher', display: 'camera' } });
  }

  private attachPublisher(kind: FeedKind, generation: number) {
    let handle: PluginHandle | undefined;
    const promise = attachVideoRoom(this.session!, {
      onmessage: (message, jsep) => {
        if (generation !== this.generation || !handle) return;
        this.onPublisherMessage(handle, kind, message, jsep);
      },
      iceState: (state) => {
        if (generation !== this.generation || kind !== 'camera') return;
        if (state === 'connected') this.onRecovered();
        else if (state === 'failed' || state === 'disconnected') this.onTrouble('ice');
      },
      webrtcState: (isUp) => {
        if (generation === this.generation && kind === 'camera' && isUp) this.onRecovered();
      },
    });
    return promise.then((attached) => (handle = attached));
  }

  private onPublisherMessage(handle: PluginHandle, kind: FeedKind, message: JanusMessage, jsep?: Jsep) {
    debug('publisher', kind, JSON.stringify(message), Boolean(jsep));
    if (jsep) handle.handleRemoteJsep({ jsep });
    const event = message.videoroom as string | undefined;
    if (event === 'joined') {
      if (kind === 'camera') {
        this.onRecovered();
        void this.publishCamera(handle);
        this.addPublishers((message.publishers as Publisher[] | undefined) ?? []);
      } else {
        void this.publishScreen(handle);
      }
      return;
    }
    if (kind !== 'camera') return;
    if (event === 'talking' || event === 'stopped-talking') {
      const owner = this.publishers.get(Number(message.id));
      if (owner) this.options.listener.onTalking(owner.participantId, event === 'talking');
      return;
    }
    if (message.publishers) this.addPublishers(message.publishers as Publisher[]);
    const gone = message.unpublished ?? message.leaving;
    if (typeof gone === 'number') this.removePublisher(gone);
    if (message.error_code === 426 || message.error_code === 428) this.onTrouble('signalling');
  }

  private async publishCamera(handle: PluginHandle) {
    const audio = this.local.audio();
    const video = this.local.video();
    const tracks = [
      ...(audio ? [{ type: 'audio' as const, capture: audio, recv: false, dontStop: true }] : []),
      ...(video ? [{ type: 'video' as const, capture: video, recv: false, simulcast: true, dontStop: true }] : []),
    ];
    if (tracks.length === 0) return;
    debug('publishing camera', tracks.length);
    const jsep = await offer(handle, { tracks }).catch((error: unknown) => {
      debug('offer failed', String(error));
      throw error;
    });
    debug('offer ready');
    handle.send({
      message: { request: 'configure', audio: Boolean(audio), video: Boolean(video) },
      jsep,
      error: (error: string) => debug('configure refused', error),
    });
  }

  /** The camera was turned on or off, or switched: replace (or add) the sending track. */
  async setVideoTrack(track: MediaStreamTrack | undefined) {
    if (this.publisher) await switchVideoTrack(this.publisher, track);
  }

  async setAudioTrack(track: MediaStreamTrack) {
    const handle = this.publisher;
    const pc = peerConnection(handle);
    const transceiver = pc?.getTransceivers().find((t) => t.receiver.track.kind === 'audio');
    if (handle && transceiver?.mid) {
      await replaceTracks(handle, [{ type: 'audio', mid: transceiver.mid, capture: track, dontStop: true }]);
    }
  }

  async startScreen(track: MediaStreamTrack) {
    this.screenTrack = track;
    this.screen = await this.attachPublisher('screen', this.generation);
    this.screen.send({ message: { request: 'join', ptype: 'publisher', display: 'screen' } });
  }

  private screenTrack: MediaStreamTrack | undefined;

  private async publishScreen(handle: PluginHandle) {
    if (!this.screenTrack) return;
    const jsep = await offer(handle, {
      tracks: [{ type: 'screen', capture: this.screenTrack, recv: false, dontStop: true }],
    });
    handle.send({ message: { request: 'configure', audio: false, video: true }, jsep });
  }

  stopScreen() {
    this.screenTrack = undefined;
    const handle = this.screen;
    this.screen = undefined;
    if (!handle) return;
    handle.send({ message: { request: 'leave' } });
    handle.detach();
  }

  private addPublishers(list: Publisher[]) {
    const fresh: number[] = [];
    for (const publisher of list) {
      const owner = parseDisplay(publisher.display);
      if (!owner) continue;
      this.publishers.set(publisher.id, owner);
      if (owner.participantId === this.options.participantId) continue;
      if (!this.subscribed.has(publisher.id)) fresh.push(publisher.id);
    }
    if (fresh.length) this.subscribe(fresh);
  }

  private removePublisher(feedId: number) {
    this.publishers.delete(feedId);
    this.subscribed.delete(feedId);
    if (this.feeds.delete(feedId)) this.emitFeeds();
  }

  /** Subscriptions are serialized: each waits for the previous negotiation to finish. */
  private subscribe(feedIds: number[]) {
    for (const id of feedIds) this.subscribed.add(id);
    const generation = this.generation;
    this.queue = this.queue
      .then(async () => {
        if (generation !== this.generation) return;
        const streams = feedIds.map((feed) => ({ feed }));
        if (!this.subscriber) {
          this.subscriber = await this.attachSubscriber(generation);
          this.subscriberReady = this.negotiated();
          this.subscriber.send({ message: { request: 'join', ptype: 'subscriber', streams, use_msid: false } });
        } else {
          this.subscriberReady = this.negotiated();
          this.subscriber.send({ message: { request: 'subscribe', streams } });
        }
        await this.subscriberReady;
      })
      .catch(() => this.onTrouble('signalling'));
  }

  private resolveNegotiation: (() => void) | undefined;
  private negotiated() {
    return new Promise<void>((resolve) => {
      this.resolveNegotiation = resolve;
      setTimeout(resolve, 8000);
    });
  }

  private attachSubscriber(generation: number) {
    let handle: PluginHandle | undefined;
    return attachVideoRoom(this.session!, {
      onmessage: (message, jsep) => {
        if (generation !== this.generation || !handle) return;
        void this.onSubscriberMessage(handle, message, jsep);
      },
      onremotetrack: (track, mid, on) => {
        if (generation === this.generation) this.onRemoteTrack(track, mid, on);
      },
      iceState: (state) => {
        if (generation !== this.generation) return;
        if (state === 'connected') this.onRecovered();
        else if (state === 'failed') this.onTrouble('ice');
      },
    }).then((attached) => (handle = attached));
  }

  private async onSubscriberMessage(handle: PluginHandle, message: JanusMessage, jsep?: Jsep) {
    debug('subscriber', JSON.stringify(message), Boolean(jsep));
    const streams = message.streams as StreamInfo[] | undefined;
    if (streams) {
      this.streams.clear();
      for (const stream of streams) this.streams.set(stream.mid, stream);
    }
    if (jsep) {
      const local = await answer(handle, jsep, [{ type: 'data', capture: false }]);
      handle.send({ message: { request: 'start' }, jsep: local });
      this.resolveNegotiation?.();
    } else if (message.error_code) {
      this.resolveNegotiation?.();
    }
  }

  private onRemoteTrack(track: MediaStreamTrack, mid: string, on: boolean) {
    debug('remote track', mid, track.kind, on);
    const info = this.streams.get(mid);
    const feedId = info?.feed_id;
    if (feedId === undefined) return;
    const owner = this.publishers.get(feedId) ?? parseDisplay(info?.feed_display);
    if (!owner) return;
    updateFeedTracks(this.feeds, { feedId, ...owner }, track, on);
    this.emitFeeds();
  }

  /** Asks for the simulcast layer that fits a tile: 2 = full, 0 = smallest. */
  private readonly layers = new Map<number, number>();
  preferLayer(feedId: number, substream: 0 | 1 | 2) {
    if (this.layers.get(feedId) === substream) return;
    const mids = videoMidsOf(this.streams, feedId);
    if (!this.subscriber || mids.length === 0) return;
    this.layers.set(feedId, substream);
    this.subscriber.send({ message: { request: 'configure', streams: mids.map((mid) => ({ mid, substream })) } });
  }

  private onRecovered() {
    this.troubleSince = undefined;
    if (this.iceTimer) clearTimeout(this.iceTimer);
    this.iceTimer = undefined;
    this.setStatus('connected');
  }

  /** ICE trouble: restart ICE first; lost signalling (or no recovery in 8 s): rejoin from scratch. */
  private onTrouble(kind: 'ice' | 'signalling') {
    if (this.isClosed) return;
    this.troubleSince ??= Date.now();
    this.setStatus('reconnecting');
    if (kind === 'ice' && this.session?.isConnected()) {
      if (this.iceTimer) return;
      this.iceTimer = setTimeout(() => {
        this.iceTimer = undefined;
        if (this.status === 'connected') return;
        void this.restartIce();
        this.iceTimer = setTimeout(() => {
          this.iceTimer = undefined;
          if (this.status !== 'connected') void this.rejoin();
        }, 8000);
      }, 2000);
      return;
    }
    void this.rejoin();
  }

  private async restartIce() {
    try {
      if (this.publisher) {
        const jsep = await offer(this.publisher, { iceRestart: true });
        this.publisher.send({ message: { request: 'configure' }, jsep });
      }
      this.subscriber?.send({ message: { request: 'configure', restart: true } });
    } catch {
      void this.rejoin();
    }
  }

  private isRejoining = false;
  private async rejoin() {
    if (this.isRejoining || this.isClosed) return;
    this.isRejoining = true;
    let delay = 500;
    while (!this.isClosed) {
      if (Date.now() - (this.troubleSince ?? Date.now()) > REJOIN_WINDOW_MS) {
        this.setStatus('failed');
        break;
      }
      this.teardown();
      try {
        await this.start();
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 4000);
      }
    }
    this.isRejoining = false;
  }

  /** Rejoins at once after the user asked to try again. */
  retry() {
    this.troubleSince = Date.now();
    this.setStatus('reconnecting');
    void this.rejoin();
  }

  private teardown() {
    this.generation += 1;
    const session = this.session;
    this.session = undefined;
    this.publisher = undefined;
    this.subscriber = undefined;
    this.screen = undefined;
    this.streams.clear();
    this.feeds.clear();
    this.publishers.clear();
    this.subscribed = new Set();
    this.layers.clear();
    this.queue = Promise.resolve();
    this.emitFeeds();
    session?.destroy({ cleanupHandles: true, notifyDestroyed: false });
  }

  /** Inbound video figures of every subscription (tests and the connection-quality badge use them). */
  async inboundVideo(): Promise<InboundVideo[]> {
    return inboundVideoStats(peerConnection(this.subscriber), (mid) => {
      const feedId = this.streams.get(mid)?.feed_id;
      const owner = feedId === undefined ? undefined : this.publishers.get(feedId);
      return feedId === undefined || !owner ? undefined : { feedId, participantId: owner.participantId };
    });
  }

  /** The camera publisher's connection: a device switch keeps it and swaps its senders' tracks. */
  publisherConnection(): RTCPeerConnection | undefined {
    return peerConnection(this.publisher);
  }

  close() {
    this.isClosed = true;
    if (this.iceTimer) clearTimeout(this.iceTimer);
    this.publisher?.send({ message: { request: 'leave' } });
    this.teardown();
  }
}
