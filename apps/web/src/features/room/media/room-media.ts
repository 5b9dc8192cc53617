import {
  attachVideoRoom,
  ClaimRefused,
  offer,
  openSession,
  peerConnection,
  type JanusMessage,
  type HandleCallbacks,
  type JanusSession,
  type Jsep,
  type PluginHandle,
} from './janus-api';
import { CameraPublication } from './camera-publication';
import { ConnectionRecovery } from './connection-recovery';
import { claimPreparedJoin, type PreparedJoin } from './prepared-join';
import { MediaWatchdog, type RepairStep } from './media-watchdog';
import {
  atMost,
  debug,
  type FeedKind,
  LatestUntilHeard,
  type InboundVideo,
  type LocalTracks,
  type Publisher,
  type RemoteFeed,
  type RoomMediaListener,
} from './media-types';
import { missingCameraFeeds, recordPublishers } from './remote-feeds';
import { ScreenShare } from './screen-share';
import { resumeSession, type ResumableMedia } from './session-resume';
import { Subscriptions } from './subscriptions';

/** The longest our camera's offer waits for the others' first picture. */
const PUBLISH_AFTER_FIRST_PICTURE_MS = 1000;

/**
 * One participant's media in a meeting, over janus.js: a publisher handle for the camera and
 * microphone, one for a screen share, and one multi-stream subscriber handle for everyone else
 * (Subscriptions). It restarts ICE when the network blips; when the signalling connection is lost it
 * claims its session back over a new one and restarts ICE (the others keep their subscriptions to us),
 * or rejoins from scratch, for up to 2 minutes (ConnectionRecovery, ADR 032); a watchdog repairs, step
 * by step, single feeds that carry no video and our own camera when it sends nothing (MediaWatchdog).
 */
export class RoomMedia implements ResumableMedia {
  private session: JanusSession | undefined;
  private publisher: PluginHandle | undefined;
  private screenShare: ScreenShare | undefined;
  private subscriptions: Subscriptions | undefined;
  private readonly feeds = new Map<number, RemoteFeed>();
  private readonly publishers = new Map<number, { participantId: string; kind: FeedKind }>();
  private generation = 0;
  /** Participants whose camera is on, by the room's word, and since when. */
  private expectedVideo = new Map<string, number>();
  private joinedAt: number | undefined;
  /** The camera's join named our subscriber handle: the proxy subscribes it on `joined` (ADR 016). */
  private isSubscribedOnJoin = false;
  private readonly camera = new CameraPublication(
    () => this.local,
    () => this.publisher,
    () => this.recovery.trouble('signalling'),
  );
  private readonly recovery: ConnectionRecovery;
  readonly watchdog: MediaWatchdog;
  /** Until the call's page listens (the click starts the media before it renders), the latest of each. */
  private listener: RoomMediaListener = new LatestUntilHeard();
  /** Resolves once the others' first media arrives, or at the join when nobody else publishes. */
  readonly firstPicture: Promise<void>;
  private markFirstPicture: () => void = () => undefined;
  /** The pre-join screen's session and handles: the first start joins with them. */
  private prepared: Promise<PreparedJoin> | undefined;
  /** Abandons the session being opened by the current start, if it is not open yet. */
  private opening: AbortController | undefined;

  constructor(
    private readonly options: {
      grant: string;
      room: number;
      iceServers: RTCIceServer[];
      participantId: string;
      prepared?: Promise<PreparedJoin>;
    },
    private local: LocalTracks = { audio: () => undefined, video: () => undefined },
  ) {
    this.prepared = options.prepared;
    this.firstPicture = new Promise((resolve) => (this.markFirstPicture = resolve));
    this.recovery = new ConnectionRecovery({
      isSignallingUp: () => Boolean(this.session?.isConnected()),
      restartIce: () => {
        // The subscriber's restart first: Janus makes its offer while ours is being made.
        void this.subscriptions?.restartIce();
        return this.restartPublisherIce();
      },
      teardown: () => this.teardown(),
      start: () => this.start(),
      canResume: () => Boolean(this.session && this.publisher && this.joinedAt !== undefined),
      resume: () => this.resume(),
      onStatus: (status) => this.listener.onStatus(status),
      isOffline: () => !navigator.onLine,
    });
    this.watchdog = new MediaWatchdog({
      selfId: options.participantId,
      subscriberConnection: () => this.subscriptions?.connection(),
      publisherConnection: () => peerConnection(this.publisher),
      watchedFeeds: () => this.subscriptions?.watched((id) => this.expectedVideo.get(id)) ?? [],
      missingFeeds: () =>
        missingCameraFeeds(this.publishers.values(), this.expectedVideo, this.options.participantId, this.joinedAt),
      publishingSince: () => (this.local.video() ? this.camera.sendingSince : undefined),
      isBusy: () => this.recovery.isBusy(),
      repair: (step, feedId) => this.repair(step, feedId),
      onHealth: (health) => this.listener.onHealth(health),
    });
  }

  /** The call's page shows this media from now on, with the local tracks it keeps. */
  show(listener: RoomMediaListener, local: LocalTracks) {
    const before = this.listener;
    this.listener = listener;
    this.local = local;
    if (before instanceof LatestUntilHeard) before.replay(listener);
  }

  private emitFeeds() {
    this.listener.onFeeds([...this.feeds.values()]);
  }

  async start(): Promise<void> {
    this.watchdog.start();
    const generation = ++this.generation;
    const onLost = () => {
      if (generation === this.generation) this.recovery.trouble('signalling');
    };
    // The first start joins with what the pre-join screen prepared, if it is still connected; a
    // rejoin (or a prepared join the proxy refused) opens a session of its own with the grant.
    const pending = this.prepared;
    this.prepared = undefined;
    const prepared = await claimPreparedJoin(pending, this.options.iceServers, onLost);
    this.opening?.abort();
    const opening = new AbortController();
    this.opening = opening;
    const session =
      prepared?.session ??
      (await openSession({ grant: this.options.grant }, this.options.iceServers, onLost, opening.signal));
    if (this.opening === opening) this.opening = undefined;
    if (generation !== this.generation) {
      session.destroy({ cleanupHandles: true, notifyDestroyed: false });
      return;
    }
    this.session = session;
    this.subscriptions = this.openSubscriptions(session);
    // Both handles attach at once; the publisher's join names the subscriber's, so that the proxy
    // subscribes it to the others' feeds as soon as Janus answers (ADR 016): a rejoin after a cut
    // saves the round trip through the page as the first join does.
    if (prepared) {
      this.subscriptions.adopt(prepared.subscriber);
      await this.joinAsPublisher(generation, prepared);
    } else {
      await this.joinAsPublisher(generation, undefined, this.subscriptions.prepare());
    }
  }

  /**
   * A prepared handle's join carries the grant that admits its connection, and names the subscriber
   * handle the proxy subscribes to the feeds already there (ADR 016; the click's early join did too);
   * a rejoin's join names the subscriber handle attached beside it (`subscriberAttached`).
   */
  private async joinAsPublisher(
    generation: number,
    preparedJoin?: PreparedJoin,
    subscriberAttached?: Promise<number | undefined>,
  ) {
    const prepared = preparedJoin?.publisher;
    this.publisher = prepared
      ? await prepared.route((handle) => {
          // Set before the answer to the click's join, held until now, reaches the callbacks.
          this.publisher = handle;
          return this.publisherCallbacks(() => handle, 'camera', generation);
        })
      : await this.attachPublisher('camera', generation);
    const subscriberHandle = preparedJoin ? preparedJoin.subscriber.id() : await subscriberAttached;
    this.isSubscribedOnJoin = subscriberHandle !== undefined;
    // An attempt given up meanwhile (recovery started a fresh one): its handle goes with its session.
    if (generation !== this.generation) return;
    this.publisher.send({
      message: {
        request: 'join',
        ptype: 'publisher',
        display: 'camera',
        ...(subscriberHandle !== undefined && { subscriber_handle: subscriberHandle }),
        ...(prepared && { grant: this.options.grant }),
      },
      error: prepared ? () => this.recovery.rejoinNow() : undefined,
    });
  }

  private openSubscriptions(session: JanusSession) {
    return new Subscriptions({
      session,
      ownerOf: (feedId) => this.publishers.get(feedId),
      feeds: this.feeds,
      onFeedsChanged: () => this.emitFeeds(),
      onIce: (state) => (state === 'connected' ? this.recovery.recovered() : this.recovery.trouble('ice')),
      onFirstPicture: () => this.markFirstPicture(),
      onSignallingLost: () => this.recovery.trouble('signalling'),
    });
  }

  /** The room says who has the camera on; the watchdog expects video from them only. */
  setExpectedVideo(participantIds: string[]) {
    const now = Date.now();
    this.expectedVideo = new Map(participantIds.map((id) => [id, this.expectedVideo.get(id) ?? now]));
  }

  private attachPublisher(kind: FeedKind, generation: number) {
    let attached: PluginHandle | undefined;
    const promise = attachVideoRoom(
      this.session!,
      this.publisherCallbacks(() => attached, kind, generation),
    );
    return promise.then((handle) => (attached = handle));
  }

  private publisherCallbacks(
    handleOf: () => PluginHandle | undefined,
    kind: FeedKind,
    generation: number,
  ): HandleCallbacks {
    return {
      onmessage: (message, jsep) => {
        const current = handleOf();
        if (generation !== this.generation || !current) return;
        this.onPublisherMessage(current, kind, message, jsep);
      },
      iceState: (state) => {
        if (generation !== this.generation || kind !== 'camera') return;
        debug('publisher ice', state);
        if (state === 'connected') this.recovery.recovered();
        else if (state === 'failed' || state === 'disconnected') this.recovery.trouble('ice');
      },
      webrtcState: (isUp) => {
        if (generation === this.generation && kind === 'camera' && isUp) this.recovery.recovered();
      },
    };
  }

  private onPublisherMessage(handle: PluginHandle, kind: FeedKind, message: JanusMessage, jsep?: Jsep) {
    debug('publisher', kind, JSON.stringify(message), Boolean(jsep));
    if (jsep) handle.handleRemoteJsep({ jsep });
    const event = message.videoroom as string | undefined;
    if (event === 'joined') {
      if (kind === 'camera') {
        this.recovery.recovered();
        this.joinedAt = Date.now();
        // Subscribing first, and offering our camera once the others' first picture is there: it is
        // what the person who joins waits for, and our camera's offer, connection and encoders
        // slowed it on a busy machine; the others see us a moment later instead.
        this.addPublishers((message.publishers as Publisher[] | undefined) ?? [], this.isSubscribedOnJoin);
        this.isSubscribedOnJoin = false;
        if (this.subscriptions?.isEmpty) this.markFirstPicture();
        void atMost(this.firstPicture, PUBLISH_AFTER_FIRST_PICTURE_MS).then(() => {
          if (handle === this.publisher) return this.camera.publish(handle);
        });
      } else {
        void this.screenShare?.publish(handle);
      }
      return;
    }
    if (kind !== 'camera' || handle !== this.publisher) return;
    if (event === 'talking' || event === 'stopped-talking') {
      const owner = this.publishers.get(Number(message.id));
      if (owner) this.listener.onTalking(owner.participantId, event === 'talking');
      return;
    }
    if (message.publishers) this.addPublishers(message.publishers as Publisher[]);
    const gone = message.unpublished ?? message.leaving;
    if (typeof gone === 'number') this.removePublisher(gone);
    if (message.error_code === 426 || message.error_code === 428) this.recovery.trouble('signalling');
  }

  /** The camera was turned on or off, or switched: replace (or add) the sending track. */
  setVideoTrack(track: MediaStreamTrack | undefined) {
    return this.camera.setVideoTrack(track);
  }

  setAudioTrack(track: MediaStreamTrack) {
    return this.camera.setAudioTrack(track);
  }

  async startScreen(track: MediaStreamTrack) {
    const share = new ScreenShare(track);
    this.screenShare = share;
    await share.start(() => this.attachPublisher('screen', this.generation));
  }

  stopScreen() {
    this.screenShare?.stop();
    this.screenShare = undefined;
  }

  private addPublishers(list: Publisher[], isJoinedByProxy = false) {
    const isSubscribed = (feedId: number) => Boolean(this.subscriptions?.has(feedId));
    const fresh = recordPublishers(this.publishers, list, this.options.participantId, isSubscribed);
    if (fresh.length) this.subscriptions?.subscribe(fresh, isJoinedByProxy);
  }

  private removePublisher(feedId: number) {
    this.publishers.delete(feedId);
    this.subscriptions?.forget(feedId);
    if (this.feeds.delete(feedId)) this.emitFeeds();
  }

  private repair(step: RepairStep, feedId: number | undefined) {
    const subscriptions = this.subscriptions;
    if (step === 'keyframe' && feedId !== undefined) subscriptions?.requestKeyframe(feedId);
    else if (step === 'resubscribe' && feedId !== undefined) subscriptions?.resubscribe(feedId);
    else if (step === 'ice-restart') void subscriptions?.restartIce();
    else if (step === 'resync') this.resync();
    else if (step === 'republish') void this.republish();
    else if (step === 'rejoin') this.recovery.rejoinNow({ fromScratch: true });
  }

  /** Asks Janus who publishes now and subscribes to what we missed (a lost `publishers` event). */
  resync() {
    this.publisher?.send({
      message: { request: 'listparticipants' },
      success: (result: { participants?: (Publisher & { publisher?: boolean })[] }) =>
        this.addPublishers((result.participants ?? []).filter((p) => p.publisher)),
    });
  }

  /** Takes the joined session back after its connection was lost (session-resume.ts, ADR 032). */
  private async resume() {
    const session = this.session;
    if (!session) throw new Error('no session to resume');
    this.opening?.abort();
    const opening = new AbortController();
    this.opening = opening;
    try {
      await resumeSession(session, this.options.grant, this, opening.signal);
    } catch (error) {
      // Janus no longer knows the session: the next attempt joins afresh.
      if (error instanceof ClaimRefused && session === this.session) this.teardown();
      throw error;
    } finally {
      if (this.opening === opening) this.opening = undefined;
    }
  }

  /** A resume's own steps (ResumableMedia); `publisherConnection` and `subscriberConnection` are below. */
  async restartSubscriberIce(waitMs: number) {
    return Boolean(await this.subscriptions?.restartIce(waitMs));
  }

  async restartScreenIce() {
    await this.screenShare?.restartIce();
  }

  subscribeAfresh() {
    const session = this.session;
    if (!session) return;
    this.subscriptions?.close({ detach: true });
    this.publishers.clear();
    this.feeds.clear();
    this.emitFeeds();
    this.subscriptions = this.openSubscriptions(session);
    void this.subscriptions.prepare();
  }

  /** Our camera sends nothing: a new publisher handle publishes it again (the others resubscribe). */
  private async republish() {
    const old = this.publisher;
    if (!old || !this.session) return;
    this.camera.reset();
    old.send({ message: { request: 'leave' } });
    old.detach();
    await this.joinAsPublisher(this.generation).catch(() => this.recovery.trouble('signalling'));
  }

  requestOwnKeyframe() {
    this.publisher?.send({ message: { request: 'configure', keyframe: true } });
  }

  async restartPublisherIce() {
    const publisher = this.publisher;
    if (!publisher) return;
    const jsep = await offer(publisher, { iceRestart: true });
    publisher.send({ message: { request: 'configure' }, jsep });
  }

  /** Rejoins at once after the user asked to try again. */
  retry() {
    this.recovery.rejoinNow();
  }

  /** The network, or the room's connection, is back: rejoin now unless the media is up. */
  networkBack() {
    this.recovery.networkBack();
  }

  private teardown() {
    this.generation += 1;
    // A session still being opened (an attempt given up) lets go of its connection.
    this.opening?.abort();
    this.opening = undefined;
    const session = this.session;
    this.session = undefined;
    this.publisher = undefined;
    this.subscriptions?.close();
    this.subscriptions = undefined;
    this.screenShare = undefined;
    this.feeds.clear();
    this.publishers.clear();
    this.joinedAt = undefined;
    this.camera.reset();
    this.emitFeeds();
    session?.destroy({ cleanupHandles: true, notifyDestroyed: false });
  }

  preferLayer(feedId: number, substream: 0 | 1 | 2) {
    this.subscriptions?.preferLayer(feedId, substream);
  }

  /** Inbound video figures of every subscription (tests and the connection-quality badge use them). */
  async inboundVideo(): Promise<InboundVideo[]> {
    return (await this.subscriptions?.inboundVideo()) ?? [];
  }

  /** For tests: Janus stops forwarding this participant's camera to us; the watchdog must notice. */
  stopForwardingForTest(participantId: string) {
    for (const [feedId, owner] of this.publishers) {
      if (owner.participantId === participantId && owner.kind === 'camera') this.subscriptions?.stopForwarding(feedId);
    }
  }

  /** The camera publisher's connection: a device switch keeps it and swaps its senders' tracks. */
  publisherConnection(): RTCPeerConnection | undefined {
    return peerConnection(this.publisher);
  }

  /** The subscriber handle's connection (everyone else's feeds). */
  subscriberConnection(): RTCPeerConnection | undefined {
    return this.subscriptions?.connection();
  }

  close() {
    this.recovery.close();
    this.watchdog.stop();
    this.publisher?.send({ message: { request: 'leave' } });
    this.teardown();
  }
}
