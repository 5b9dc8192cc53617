import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { broadcastDestinations, eq, liveBroadcasts, type BroadcastRow, type DestinationRow } from '@meetcast/db';
import { notifyChannelFollowers } from '../../notifications/channel-followers.js';
import type { AppContext } from '../../context.js';
import { MeetingRepository } from '../../meeting-records/meeting-repository.js';
import { issueGrant } from '../../rooms/grants.js';
import { DestinationError, type DestinationDriver } from '../destination-driver.js';
import { checkedIngestUrl, ingestConnectTarget } from '../ingest-address.js';
import { attachRecording, moveBroadcast } from '../state/broadcast-state.js';
import { endRunningDestinations, type DestinationValues } from '../state/destination-state.js';
import type { ConnectTarget } from '../../platform/address-policy.js';
import type { Quality } from './capacity.js';
import type { ComposerStage } from './composer-stage.js';
import { BroadcastEncode } from './broadcast-encode.js';
import { writeBroadcastQuality } from './broadcast-quality.js';
import { Pusher, type PusherState } from './pusher.js';
import { Recorder, recordingNameFor } from './recorder.js';
import { DestinationWriter, type RunningDestination } from './running-destination.js';
import { ViewerFeed } from './viewer-feed.js';
import { backoffDelay, type BackoffSchedule } from '../../platform/backoff.js';

export type Drivers = Record<DestinationRow['platform'], DestinationDriver>;

const STATUS_EVERY_MS = 5000;
/** How long the channel page's player and the recording wait for the encode to start. */
const FIRST_BYTES_WAIT_MS = 10_000;
/** Waits before asking a platform that was down or slow again, the last one repeated while the broadcast runs. */
const PLATFORM_RETRIES: BackoffSchedule = { firstMs: 1000, maxMs: 30_000 };

export interface SessionOptions {
  context: AppContext;
  drivers: Drivers;
  broadcast: BroadcastRow;
  quality: Quality;
  /** The screen, sound card and browser to compose with (perhaps started long before, as a spare). */
  stage: ComposerStage;
  /** Where the layout page is served, e.g. http://127.0.0.1:3000. */
  pageBaseUrl: string;
  recordingsDir: string;
}

/**
 * One broadcast on this machine: the virtual screen, the layout page, the one encode, a pusher per
 * destination and the recording. `sync` is called every couple of seconds by the worker: it follows
 * the host's changes (stop, destinations added or removed) and writes the figures back.
 */
export class BroadcastSession {
  private recorder: Recorder | undefined;
  /** The public channel page's player: WebRTC mountpoint and HLS (ADR 011). */
  private viewerFeed: ViewerFeed | undefined;
  private recordingName: string | undefined;
  private readonly destinations = new Map<number, RunningDestination>();
  /** Platforms told that a destination ended (YouTube's "complete"): awaited when the broadcast ends. */
  private readonly finishing = new Set<Promise<void>>();
  private stopping: Promise<void> | undefined;
  /** The one encode, shared by every destination, the viewers and the recording (ADR 021). */
  private readonly encode: BroadcastEncode;
  isEnded = false;
  /** Destinations start once the encode runs: a pusher with nothing to send would look stalled. */
  private isEncoding = false;
  /** The viewer feed runs: from then on the recording may start (at once, or at "Go live"). */
  private isFeeding = false;

  /** When this composer took the broadcast: its step timings are counted from here. */
  private readonly startedAt = Date.now();
  /** Refuses ingests inside this machine's networks (docs/security.md "Outgoing connections"). */
  private readonly connectTarget: ConnectTarget;

  /** The platform's ids are kept as soon as it hands them out: a retry, or a composer taking over, reuses them. */
  private readonly writer: DestinationWriter;

  constructor(private readonly options: SessionOptions) {
    this.connectTarget = ingestConnectTarget(options.context.config);
    this.writer = new DestinationWriter(options.context, options.broadcast, (message, extra) =>
      this.log(message, extra),
    );
    this.encode = new BroadcastEncode(options.stage.ledger, options.stage.screen, options.quality, {
      log: (message) => this.log(`${message} (${Date.now() - this.startedAt} ms)`),
      onFailed: () => void this.fail('broadcasts.composer_failed'),
      onQuality: (quality) => writeBroadcastQuality(options.context, options.broadcast, quality.name),
    });
  }

  private get ledger() {
    return this.options.stage.ledger;
  }

  private get id() {
    return this.options.broadcast.id;
  }

  private log(message: string, extra: Record<string, unknown> = {}) {
    this.options.context.log.info({ broadcastId: this.id, ...extra }, `composer: ${message}`);
  }

  async start() {
    const { context, broadcast } = this.options;
    const meeting = await new MeetingRepository(context.db).findById(broadcast.meetingId);
    if (!meeting) throw new Error('meeting gone');
    const took = (step: string) => this.log(`${step} after ${Date.now() - this.startedAt} ms`);
    // The platforms are asked for their ingest while the page opens (YouTube takes several calls);
    // the pushers themselves start with the encode.
    void this.syncDestinations().catch((error: unknown) => this.log('destinations not read', { err: error }));
    const { token } = await issueGrant(context.db, {
      meetingId: meeting.id,
      userId: null,
      displayName: 'Meetcast',
      browserHash: null,
      role: 'composer',
      state: 'admitted',
    });
    // The grant travels in the fragment: it never reaches a log or a Referer.
    const url = `${this.options.pageBaseUrl}/broadcast-layout/${encodeURIComponent(meeting.slug)}#grant=${token}`;
    const { browser } = this.options.stage;
    await browser.open(url);
    took('layout opened');
    await browser.ready(20_000);
    took('layout ready (in the room)');
    // The encode starts once the layout is in the room (not after every tile): started earlier, while
    // the page loaded, it competed with it for two busy cores and its readers repeatedly failed to
    // find the video's parameters ("dimensions not set"); see ADR 014.
    this.encode.start();
    this.isEncoding = true;
    for (const running of this.destinations.values()) this.startPusher(running);
    // The channel page's player and the recording come after the platforms' first bytes: their
    // ffmpeg processes starting beside the encoder took the cores it needed to start (ADR 014).
    await this.encode.firstBytes(FIRST_BYTES_WAIT_MS);
    if (this.isEnded) return;
    this.viewerFeed = new ViewerFeed(context, this.ledger, this.encode.fanOut, this.id, (message) => this.log(message));
    await this.viewerFeed.start(meeting);
    took('viewer feed ready');
    this.isFeeding = true;
    // Read again: "Go live" (ADR 047) may have asked for the recording while the page opened.
    const [current] = await context.db.select().from(liveBroadcasts).where(eq(liveBroadcasts.id, this.id));
    if ((current ?? broadcast).record) this.startRecorder();
    const wentLive = await moveBroadcast(context, this.id, 'live', {
      startedAt: new Date(),
      quality: this.encode.quality.name,
    });
    // Once per broadcast: a composer taking over a live one finds it already live and says nothing; a
    // rehearsal's followers hear of it at "Go live" (broadcast-service.ts goLive), not now.
    if (wentLive && !wentLive.rehearsal && meeting.channelId) {
      notifyChannelFollowers(context, meeting.id, 'live').catch((error: unknown) =>
        context.log.warn({ err: error, broadcastId: this.id }, 'could not tell the channel followers'),
      );
    }
  }

  /**
   * The recording, on the encode that runs: at the start, or when "Go live" after a rehearsal asks for
   * it (ADR 047), without restarting anything. Once per session.
   */
  private startRecorder() {
    if (this.recorder || this.isEnded) return;
    mkdirSync(this.options.recordingsDir, { recursive: true });
    this.recordingName = recordingNameFor(this.id, this.options.recordingsDir);
    this.recorder = new Recorder(
      this.ledger,
      this.encode.fanOut,
      join(this.options.recordingsDir, this.recordingName),
      (message) => this.log(message),
    );
    this.recorder.start();
    this.log(`recording started after ${Date.now() - this.startedAt} ms`);
  }

  /** Follows the database: stop, destinations added or removed; writes states and figures. */
  async sync() {
    const { context } = this.options;
    const [row] = await context.db.select().from(liveBroadcasts).where(eq(liveBroadcasts.id, this.id));
    const meeting = row ? await new MeetingRepository(context.db).findById(row.meetingId) : undefined;
    if (!row || row.stopRequested || !meeting || meeting.state === 'ended' || meeting.state === 'cancelled') {
      await this.stop();
      return;
    }
    if (row.record && this.isFeeding) this.startRecorder();
    await this.syncDestinations();
  }

  /** Starts the destinations added (at once, or while live), ends the removed ones, writes figures. */
  private async syncDestinations() {
    const rows = await this.options.context.db
      .select()
      .from(broadcastDestinations)
      .where(eq(broadcastDestinations.broadcastId, this.id));
    for (const destination of rows) {
      const running = this.destinations.get(destination.id);
      if (destination.removed) {
        if (running) await this.endDestination(running);
        continue;
      }
      if (!running && destination.state !== 'ended' && destination.state !== 'failed') {
        this.addDestination(destination);
      } else if (running) {
        running.row = destination;
        await this.reportFigures(running);
      }
    }
    // Added again after removal or failure: the old row was replaced by a new one, started above.
    for (const running of [...this.destinations.values()]) {
      if (!rows.some((row) => row.id === running.row.id)) await this.endDestination(running);
    }
  }

  private addDestination(row: DestinationRow) {
    const running: RunningDestination = {
      row,
      pusher: undefined,
      ingestUrl: undefined,
      isLive: false,
      lastStatusAt: 0,
    };
    this.destinations.set(row.id, running);
    this.prepare(running, 0);
  }

  /**
   * Asks the platform for the ingest, then pushes. A platform that is down or slow is asked again
   * with backoff (the destination shows why meanwhile); a refusal fails the destination at once.
   */
  private prepare(running: RunningDestination, attempt: number) {
    const { row } = running;
    const driver = this.options.drivers[row.platform];
    void driver
      .prepare(row)
      .then(async ({ ingestUrl, ids }) => {
        await this.writer.write(running, ids ?? {});
        return checkedIngestUrl(this.connectTarget, ingestUrl);
      })
      .then(
        (ingestUrl) => {
          if (this.isEnded || !this.destinations.has(row.id)) return;
          this.log(`destination ready after ${Date.now() - this.startedAt} ms`, { destinationId: row.id });
          running.ingestUrl = ingestUrl;
          this.startPusher(running);
        },
        async (error: unknown) => {
          if (error instanceof DestinationError) await this.writer.write(running, error.ids);
          await this.retryOrFail(running, error, attempt, () => this.prepare(running, attempt + 1));
        },
      );
  }

  /**
   * Pushes the encode to a destination whose ingest is known, once the encode runs. The publisher
   * resolves and checks the address again at each connection and connects to what it checked.
   */
  private startPusher(running: RunningDestination) {
    if (!this.isEncoding || running.pusher || !running.ingestUrl || this.isEnded) return;
    const { row } = running;
    const ingestUrl = running.ingestUrl;
    const pusher = new Pusher(
      this.encode.flvFanOut,
      ingestUrl,
      () => this.encode.fps,
      (message) => this.log(`${message} (${Date.now() - this.startedAt} ms)`, { destinationId: row.id }),
      // The socket goes to the address the policy checked, so a name cannot move inside between check and connect.
      { connectTarget: this.connectTarget },
    );
    running.pusher = pusher;
    pusher.on('state', (state, error) => void this.onPusherState(running, state, error));
    pusher.start();
  }

  /**
   * A platform that refused (revoked grant, channel that cannot stream) fails the destination; any
   * other trouble is asked again with backoff for as long as the broadcast runs.
   */
  private async retryOrFail(running: RunningDestination, error: unknown, attempt: number, again: () => void) {
    if (error instanceof DestinationError && !error.retryable) {
      await this.failDestination(running, error.key);
      return;
    }
    const key = error instanceof DestinationError ? error.key : 'broadcasts.platform_failed';
    this.log('platform call failed; trying again', { destinationId: running.row.id, key, err: error });
    await this.writer.write(running, { error: key });
    const timer = setTimeout(
      () => {
        if (!this.isEnded && this.destinations.get(running.row.id) === running) again();
      },
      backoffDelay(attempt + 1, PLATFORM_RETRIES),
    );
    timer.unref();
  }

  private goLive(running: RunningDestination, attempt: number) {
    void this.options.drivers[running.row.platform].goLive(running.row).then(
      () => this.writer.write(running, { error: null }),
      (failure: unknown) => void this.retryOrFail(running, failure, attempt, () => this.goLive(running, attempt + 1)),
    );
  }

  private async onPusherState(running: RunningDestination, state: PusherState, error: string | null) {
    // Ended (its end is written by endDestination), or replaced: nothing of this pusher is news.
    if (this.isEnded || state === 'ended' || this.destinations.get(running.row.id) !== running) return;
    // The platform refused the key: retrying cannot help, the host is told why.
    if (state === 'failed') return this.failDestination(running, error ?? 'broadcasts.destination_refused');
    // A pusher about to connect again resolves the name again: a name moved inside since is refused.
    if (error && (state === 'starting' || state === 'reconnecting') && running.ingestUrl) {
      const check: unknown = await checkedIngestUrl(this.connectTarget, running.ingestUrl).catch((e: unknown) => e);
      if (check instanceof DestinationError && !check.retryable) return this.failDestination(running, check.key);
    }
    if (state === 'live' && !running.isLive) {
      running.isLive = true;
      // The platform sees media now: YouTube waits for the stream to be active and goes live.
      this.goLive(running, 0);
    }
    await this.writer.move(running, state, { error });
  }

  private async reportFigures(running: RunningDestination) {
    const figures = running.pusher?.figures ?? { bitrateKbps: null, fps: null };
    const platform: { health?: string; viewers?: number } = {};
    if (running.pusher?.state === 'live' && Date.now() - running.lastStatusAt > STATUS_EVERY_MS) {
      running.lastStatusAt = Date.now();
      Object.assign(platform, await this.options.drivers[running.row.platform].status(running.row).catch(() => ({})));
    }
    const values: DestinationValues = {
      bitrateKbps: figures.bitrateKbps,
      fps: figures.fps,
      ...(platform.health !== undefined ? { health: platform.health } : {}),
      ...(platform.viewers !== undefined ? { viewers: platform.viewers } : {}),
    };
    await this.writer.writeIfMoved(running, values);
  }

  /** Out of this session's list at once, so the host's Retry (a new row) starts a fresh push. */
  private async failDestination(running: RunningDestination, key: string) {
    this.log('destination failed', { destinationId: running.row.id, key });
    this.destinations.delete(running.row.id);
    await running.pusher?.stop();
    running.pusher = undefined;
    await this.writer.move(running, 'failed', { error: key, bitrateKbps: null, fps: null });
  }

  /** The push ends cleanly (the receiver sees the end of the stream); the platform is told after. */
  private async endDestination(running: RunningDestination) {
    this.destinations.delete(running.row.id);
    await running.pusher?.stop();
    await this.writer.move(running, 'ended', { bitrateKbps: null, fps: null });
    const finished = this.options.drivers[running.row.platform].finish(running.row).catch((error: unknown) => {
      this.log('destination finish failed', { destinationId: running.row.id, err: error });
    });
    this.finishing.add(finished);
    void finished.finally(() => this.finishing.delete(finished));
  }

  async fail(failure: string) {
    await this.stop(failure);
  }

  /**
   * Ends everything this broadcast runs. The pushes end first and cleanly, then the broadcast is
   * ended (the stop's answer waits for this, not for the rest); the recording is finished last,
   * from what was written, and named on the ended broadcast.
   */
  stop(failure?: string): Promise<void> {
    // A second caller (the worker's shutdown) waits for the stop under way: its stage is still stopping.
    this.stopping ??= this.end(failure);
    return this.stopping;
  }

  private async end(failure: string | undefined) {
    this.isEnded = true;
    const { context, broadcast } = this.options;
    this.log(failure ? `failed: ${failure}` : 'stopping');
    await Promise.all([
      ...[...this.destinations.values()].map((running) => this.endDestination(running)),
      this.viewerFeed?.stop(),
    ]);
    // A clean end keeps the notice of why it was ended by itself (broadcast-limits.ts), if any.
    const ended = await moveBroadcast(context, this.id, failure ? 'failed' : 'ended', { failure, composerId: null });
    if (!ended) this.log('already ended elsewhere');
    await endRunningDestinations(context, broadcast);
    await this.encode.stop();
    if (this.recorder) {
      const seconds = await this.recorder.finish().catch((error: unknown) => {
        this.log('recording failed', { err: error });
        return undefined;
      });
      if (seconds && this.recordingName) await attachRecording(context, this.id, { file: this.recordingName, seconds });
    }
    await this.options.stage.stop();
    await Promise.all(this.finishing);
  }
}
