/**
 * The media watchdog: every second it reads getStats() of the subscriber and publisher connections
 * and repairs, by itself and step by step, what does not flow. A remote camera that has decoded no
 * frame a few seconds after its subscription started, or that froze while its owner still says the
 * camera is on, gets a keyframe request, then a fresh subscription, then an ICE restart, then a full
 * rejoin; our own camera that sends no frames is published again. Each step is logged with its reason
 * (console and an in-memory log the tests read), and each tile learns its health meanwhile.
 */
export type FeedHealth = 'connecting' | 'poor' | 'failed';
export type RepairStep = 'keyframe' | 'resubscribe' | 'resync' | 'ice-restart' | 'rejoin' | 'republish';

export interface RepairLogEntry {
  at: number;
  step: RepairStep | 'recovered';
  participantId: string;
  reason: string;
}

/** A remote camera we subscribed to: its video mids and when Janus started sending it. */
export interface WatchedFeed {
  feedId: number;
  participantId: string;
  mids: string[];
  startedAt: number;
}

export interface WatchdogHost {
  subscriberConnection(): RTCPeerConnection | undefined;
  publisherConnection(): RTCPeerConnection | undefined;
  watchedFeeds(): WatchedFeed[];
  /** Participants who say their camera is on but whose camera we have not subscribed to (since when). */
  missingFeeds(): { participantId: string; since: number }[];
  /** Our camera is on and its publication was configured at this time; undefined when nothing is sent. */
  publishingSince(): number | undefined;
  selfId: string;
  /** The whole connection is being healed (ICE restart, rejoin): feed repairs wait. */
  isBusy(): boolean;
  repair(step: RepairStep, feedId: number | undefined): void;
  onHealth(health: Record<string, FeedHealth>): void;
}

const TICK_MS = 1000;
/** No first frame this long after `started`: the subscription is repaired. */
export const FIRST_FRAME_MS = 4000;
/** No new frame this long while the owner's camera is on: the video froze. */
export const FROZEN_MS = 3000;
/**
 * Our camera sent no frame this long: published again. Longer than for a subscription, because a
 * republish disturbs everyone and a loaded machine's encoder may take a few seconds to start.
 */
const PUBLISH_STALL_MS = 6000;
/**
 * A camera announced but never subscribed to, this long: we ask Janus who publishes. Longer than the
 * room's 5-s grace before it announces that someone left, since Janus says so at once when they close
 * their tab (2026-12-01: at 6 s, 3 of 10 joins of bench/room-join.ts asked after the one who had left).
 */
const MISSING_MS = 8000;
/** After each step, how long to wait for frames before the next one. */
const FEED_STEPS: { step: RepairStep; waitMs: number }[] = [
  { step: 'keyframe', waitMs: 3000 },
  { step: 'resubscribe', waitMs: 6000 },
  { step: 'ice-restart', waitMs: 8000 },
  { step: 'rejoin', waitMs: 12000 },
];
const PUBLISH_STEPS: { step: RepairStep; waitMs: number }[] = [
  { step: 'republish', waitMs: 8000 },
  { step: 'rejoin', waitMs: 12000 },
];
/** After every step failed, the last one is tried again this often. */
const FAILED_RETRY_MS = 30_000;
const LOG_SIZE = 100;
const FORGET_MS = 30_000;

interface Progress {
  participantId: string;
  /** When this subscription (of these mids) started. */
  startedAt: number;
  /** Last tick the feed was subscribed; gone for FORGET_MS, it is forgotten. */
  seenAt: number;
  frames: number;
  bytes: number;
  progressAt: number;
  hasDecoded: boolean;
  step: number;
  stepAt: number;
  /** Every step was tried and the video still does not flow: the tile says what to try. */
  hasFailed: boolean;
}

interface VideoCounters {
  frames: number;
  bytes: number;
}

async function inboundByMid(pc: RTCPeerConnection | undefined) {
  const byMid = new Map<string, VideoCounters>();
  let transport = '';
  if (!pc) return { byMid, transport };
  const report = await pc.getStats();
  report.forEach((entry: { type: string; kind?: string; mid?: string } & Record<string, unknown>) => {
    if (entry.type === 'inbound-rtp' && entry.kind === 'video' && entry.mid !== undefined) {
      byMid.set(entry.mid, { frames: Number(entry.framesDecoded ?? 0), bytes: Number(entry.bytesReceived ?? 0) });
    }
    if (entry.type === 'transport') transport = `ice ${String(entry.iceState)}, dtls ${String(entry.dtlsState)}`;
  });
  return { byMid, transport: transport || `ice ${pc.iceConnectionState}` };
}

/** Frames sent, not bytes: a sender without a picture still sends padding while it probes bandwidth. */
async function outboundVideoFrames(pc: RTCPeerConnection | undefined): Promise<number> {
  if (!pc) return 0;
  let frames = 0;
  (await pc.getStats()).forEach((entry: { type: string; kind?: string; framesSent?: number }) => {
    if (entry.type === 'outbound-rtp' && entry.kind === 'video') frames += entry.framesSent ?? 0;
  });
  return frames;
}

export class MediaWatchdog {
  readonly log: RepairLogEntry[] = [];
  private readonly feeds = new Map<number, Progress>();
  private readonly missing = new Map<string, { step: number; stepAt: number }>();
  private publication: Progress | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private isTicking = false;
  private lastHealth = '';

  constructor(private readonly host: WatchdogHost) {}

  start() {
    this.timer ??= setInterval(() => void this.tick(), TICK_MS);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private note(step: RepairLogEntry['step'], participantId: string, reason: string) {
    const entry = { at: Date.now(), step, participantId, reason };
    this.log.push(entry);
    if (this.log.length > LOG_SIZE) this.log.shift();
    console.info(`[media-watchdog] ${step} for ${participantId}: ${reason}`);
  }

  async tick() {
    if (this.isTicking) return;
    this.isTicking = true;
    try {
      const health: Record<string, FeedHealth> = {};
      const now = Date.now();
      if (this.host.isBusy()) {
        // The connection as a whole is being healed: give every feed a fresh start afterwards.
        for (const progress of this.feeds.values()) progress.progressAt = now;
        if (this.publication) this.publication.progressAt = now;
      } else {
        await this.checkSubscriptions(now, health);
        await this.checkPublication(now, health);
        this.checkMissing(now, health);
      }
      this.emit(health);
    } finally {
      this.isTicking = false;
    }
  }

  private emit(health: Record<string, FeedHealth>) {
    const key = JSON.stringify(health);
    if (key === this.lastHealth) return;
    this.lastHealth = key;
    this.host.onHealth(health);
  }

  private async checkSubscriptions(now: number, health: Record<string, FeedHealth>) {
    const watched = this.host.watchedFeeds();
    const { byMid, transport } = await inboundByMid(this.host.subscriberConnection());
    // A feed being resubscribed is away for a moment: its escalation goes on when it is back.
    for (const [id, progress] of this.feeds) {
      if (watched.some((feed) => feed.feedId === id)) continue;
      if (now - progress.seenAt > FORGET_MS) this.feeds.delete(id);
      else if (progress.step > 0) health[progress.participantId] = progress.hasFailed ? 'failed' : 'poor';
    }
    for (const feed of watched) {
      const counters = feed.mids.map((mid) => byMid.get(mid) ?? { frames: 0, bytes: 0 });
      const frames = counters.reduce((sum, c) => sum + c.frames, 0);
      const bytes = counters.reduce((sum, c) => sum + c.bytes, 0);
      let progress = this.feeds.get(feed.feedId);
      if (!progress || feed.startedAt > progress.startedAt) {
        // New, or subscribed afresh (new mids, counters from zero): count from its start, keep the step.
        progress = {
          participantId: feed.participantId,
          startedAt: feed.startedAt,
          seenAt: now,
          frames,
          bytes,
          progressAt: Math.max(feed.startedAt, progress?.progressAt ?? 0),
          hasDecoded: progress?.hasDecoded ?? frames > 0,
          step: progress?.step ?? 0,
          stepAt: progress?.stepAt ?? 0,
          hasFailed: progress?.hasFailed ?? false,
        };
        this.feeds.set(feed.feedId, progress);
      }
      progress.seenAt = now;
      if (frames > progress.frames) {
        if (progress.step > 0) this.note('recovered', feed.participantId, `frames flow again (${frames} decoded)`);
        Object.assign(progress, {
          frames,
          bytes,
          progressAt: now,
          hasDecoded: true,
          step: 0,
          stepAt: 0,
          hasFailed: false,
        });
        continue;
      }
      const receivesBytes = bytes > progress.bytes;
      progress.bytes = bytes;
      const stalledMs = now - progress.progressAt;
      if (!progress.hasDecoded) health[feed.participantId] = 'connecting';
      if (stalledMs < (progress.hasDecoded ? FROZEN_MS : FIRST_FRAME_MS)) continue;
      if (progress.hasDecoded) health[feed.participantId] = 'poor';
      const why = progress.hasDecoded
        ? `video frozen for ${Math.round(stalledMs / 1000)} s`
        : `no frame ${Math.round(stalledMs / 1000)} s after the subscription started`;
      this.escalate(progress, FEED_STEPS, now, feed.participantId, feed.feedId, health, {
        reason: `${why} (${receivesBytes ? 'bytes still arrive' : 'no bytes arrive'}; ${transport})`,
      });
    }
  }

  private async checkPublication(now: number, health: Record<string, FeedHealth>) {
    const since = this.host.publishingSince();
    if (since === undefined) {
      this.publication = undefined;
      return;
    }
    const frames = await outboundVideoFrames(this.host.publisherConnection());
    // A new publication (a rejoin's connection counts its frames from zero) is judged on its own.
    if (this.publication && (this.publication.startedAt !== since || frames < this.publication.frames)) {
      this.publication = undefined;
    }
    const publication = (this.publication ??= {
      participantId: this.host.selfId,
      startedAt: since,
      seenAt: now,
      frames,
      bytes: 0,
      progressAt: since,
      hasDecoded: false,
      step: 0,
      stepAt: 0,
      hasFailed: false,
    });
    if (frames > publication.frames) {
      if (publication.step > 0) this.note('recovered', this.host.selfId, 'our camera is sent again');
      Object.assign(publication, { frames, progressAt: now, hasDecoded: true, step: 0, stepAt: 0, hasFailed: false });
      return;
    }
    if (now - publication.progressAt < PUBLISH_STALL_MS) return;
    health[this.host.selfId] = 'poor';
    this.escalate(publication, PUBLISH_STEPS, now, this.host.selfId, undefined, health, {
      reason: `our camera sent no frame for ${Math.round((now - publication.progressAt) / 1000)} s`,
    });
  }

  private checkMissing(now: number, health: Record<string, FeedHealth>) {
    const missing = this.host.missingFeeds();
    for (const id of this.missing.keys()) if (!missing.some((m) => m.participantId === id)) this.missing.delete(id);
    for (const { participantId, since } of missing) {
      health[participantId] = 'connecting';
      if (now - since < MISSING_MS) continue;
      const state = this.missing.get(participantId) ?? { step: 0, stepAt: 0 };
      this.missing.set(participantId, state);
      // Once every step was tried and the last had its time, the tile says so until the feed comes.
      const hasFailed = state.step > 3 || (state.step === 3 && now - state.stepAt >= MISSING_MS * 2);
      if (hasFailed) health[participantId] = 'failed';
      if (state.stepAt && now - state.stepAt < MISSING_MS * 2) continue;
      // First ask Janus who publishes; if that finds nothing twice, rejoin.
      const step: RepairStep = state.step < 2 ? 'resync' : 'rejoin';
      state.step += 1;
      state.stepAt = now;
      this.note(step, participantId, `camera on for ${Math.round((now - since) / 1000)} s but no subscription`);
      this.host.repair(step, undefined);
    }
  }

  private escalate(
    progress: Progress,
    steps: { step: RepairStep; waitMs: number }[],
    now: number,
    participantId: string,
    feedId: number | undefined,
    health: Record<string, FeedHealth>,
    { reason }: { reason: string },
  ) {
    if (progress.hasFailed) health[participantId] = 'failed';
    const previous = steps[progress.step - 1];
    const waitMs = progress.hasFailed ? FAILED_RETRY_MS : (previous?.waitMs ?? 0);
    if (previous && now - progress.stepAt < waitMs) return;
    // Every step tried and still nothing: say so, and keep trying the last one now and then.
    if (progress.step >= steps.length) {
      progress.hasFailed = true;
      health[participantId] = 'failed';
      progress.step = steps.length - 1;
    }
    const next = steps[progress.step]!;
    progress.step += 1;
    progress.stepAt = now;
    this.note(next.step, participantId, reason);
    this.host.repair(next.step, feedId);
  }
}
