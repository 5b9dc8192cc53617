import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { and, asc, inArray, isNull, liveBroadcasts, lt, or } from '@meetcast/db';
import type { AppContext } from '../../context.js';
import { beatComposerHeart, changeRunningBroadcast, moveBroadcast } from '../state/broadcast-state.js';
import { BroadcastSession, type Drivers } from './broadcast-session.js';
import { HD_SCREEN, maySpareLaunchBeside, pickQuality, qualityNamed, type Quality, type StageScreen } from './capacity.js';
import { killWorkerLeftovers } from './child-processes.js';
import { ComposerStage } from './composer-stage.js';
import { claimDisplayNumber } from './virtual-screen.js';

/** A composer silent for this long has died: another worker takes its broadcast over. */
export const HEARTBEAT_STALE_MS = 15_000;
const TICK_MS = 2000;
/** How long a broadcast waits for a worker with room before it fails with "no capacity". */
const CLAIM_PATIENCE_MS = 10_000;
/** A broadcast's first seconds: its encoder and pushers starting; the next spare waits for them. */
const SPARE_AFTER_GO_LIVE_MS = 15_000;
/** A shutdown's wait for broadcasts to end cleanly: under the 5 s every shutdown step gets (close-within.ts). */
const CLOSE_GRACE_MS = 3500;

export interface ComposerWorkerOptions {
  drivers: Drivers;
  /** Cores this machine gives composers (COMPOSER_CORES); undefined: all of them. */
  cores: number | undefined;
  /** Composer stages kept started (COMPOSER_SPARES), so that going live does not wait for Chromium. */
  spares: number;
}

/**
 * Runs broadcasts on this machine. Broadcasts are rows in the database; any worker (in the web
 * server's process, or `composer-main.ts` on another machine) claims one it has room for, keeps a
 * heartbeat on it, and gives it up when it ends. A worker that dies stops its heartbeat, and the
 * broadcast is taken over by another (or by this one after a restart).
 */
export class ComposerWorker {
  readonly id = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private readonly sessions = new Map<number, { session: BroadcastSession; quality: Quality }>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private isTicking = false;
  private isNudgedMeanwhile = false;
  private pageBaseUrl: string | undefined;
  /** The stage kept ready, and its start (which may still be running; undefined if it failed). */
  private spare: { stage: ComposerStage; started: Promise<ComposerStage | undefined> } | undefined;
  private isClosed = false;
  /** Workers of this machine, on this DATA_DIR, whose process is gone: their broadcasts are orphans. */
  private readonly deadWorkers = new Set<string>();

  constructor(
    private readonly context: AppContext,
    private readonly options: ComposerWorkerOptions,
  ) {}

  private get rootFolder() {
    return join(this.context.config.dataDir, 'composers');
  }

  get recordingsDir() {
    return join(this.context.config.dataDir, 'recordings');
  }

  /** Starts claiming once the layout page can be reached (the HTTP server listens). */
  start(pageBaseUrl: string) {
    this.pageBaseUrl = pageBaseUrl;
    this.cleanUpDeadWorkers();
    this.timer = setInterval(() => this.nudge(), TICK_MS);
    this.timer.unref();
    this.nudge();
    this.prepareSpare();
  }

  /** The quality a new broadcast would get here now, or undefined when this machine is full. */
  quality(): Quality | undefined {
    return pickQuality(this.runningQualities(), this.options.cores);
  }

  private runningQualities(): Quality[] {
    return [...this.sessions.values()].map((entry) => entry.quality);
  }

  /**
   * Syncs and claims now (a broadcast was started or changed here). A nudge during a tick runs
   * another right after it, instead of being lost until the next timer tick 2 s later.
   */
  nudge() {
    if (!this.pageBaseUrl) return;
    if (this.isTicking) {
      this.isNudgedMeanwhile = true;
      return;
    }
    this.isTicking = true;
    this.isNudgedMeanwhile = false;
    this.tick()
      .catch((error: unknown) => this.context.log.error({ err: error }, 'composer: tick failed'))
      .finally(() => {
        this.isTicking = false;
        if (this.isNudgedMeanwhile) this.nudge();
      });
  }

  private async tick() {
    const ids = [...this.sessions.keys()];
    await beatComposerHeart(this.context, ids, this.id);
    for (const [id, entry] of this.sessions) {
      await entry.session.sync().catch((error: unknown) => this.context.log.error({ err: error }, 'composer: sync'));
      if (entry.session.isEnded) {
        this.sessions.delete(id);
        this.prepareSpare();
      }
    }
    await this.claimOne();
  }

  private async claimOne() {
    const [candidate] = await this.context.db
      .select()
      .from(liveBroadcasts)
      .where(and(inArray(liveBroadcasts.state, ['starting', 'live']), this.claimable()))
      .orderBy(asc(liveBroadcasts.id))
      .limit(1);
    if (!candidate || this.sessions.has(candidate.id)) return;
    // The row holds what the host asked for, or what a broadcast taken over started with: it gets that
    // when this machine can afford it, else the best it can.
    const quality = pickQuality(this.runningQualities(), this.options.cores, qualityNamed(candidate.quality));
    if (!quality) {
      if (Date.now() - candidate.createdAt.getTime() > CLAIM_PATIENCE_MS) {
        await moveBroadcast(
          this.context,
          candidate.id,
          'failed',
          { failure: 'broadcasts.capacity_full' },
          isNull(liveBroadcasts.composerId),
        );
      }
      return;
    }
    const claimed = await changeRunningBroadcast(
      this.context,
      candidate.id,
      { composerId: this.id, composerHeartbeatAt: new Date(), quality: quality.name },
      this.claimable(),
    );
    if (!claimed) return;
    this.context.log.info({ broadcastId: claimed.id, quality: quality.name }, 'composer: claimed');
    let stage: ComposerStage;
    try {
      stage = await this.takeStage(quality.screen);
    } catch (error) {
      this.context.log.error({ err: error, broadcastId: claimed.id }, 'composer: no stage');
      await moveBroadcast(this.context, claimed.id, 'failed', {
        failure: 'broadcasts.composer_failed',
        composerId: null,
      });
      return;
    }
    const session = new BroadcastSession({
      context: this.context,
      drivers: this.options.drivers,
      broadcast: claimed,
      quality,
      stage,
      pageBaseUrl: this.pageBaseUrl!,
      recordingsDir: this.recordingsDir,
    });
    this.sessions.set(claimed.id, { session, quality });
    session.start().then(
      () => {
        this.nudge();
        // Never while this broadcast's encoder and pushers are still reaching their first bytes.
        setTimeout(() => this.prepareSpare(), SPARE_AFTER_GO_LIVE_MS).unref();
      },
      (error: unknown) => {
        this.context.log.error({ err: error, broadcastId: claimed.id }, 'composer: start failed');
        void session.fail('broadcasts.composer_failed');
      },
    );
  }

  /**
   * A broadcast no worker runs: none claimed it, its composer has been silent for
   * HEARTBEAT_STALE_MS, or its composer was a process of this machine that is gone (a server
   * restarted after a crash takes its broadcasts back at once instead of 15 s later).
   */
  private claimable() {
    const stale = new Date(Date.now() - HEARTBEAT_STALE_MS);
    return or(
      isNull(liveBroadcasts.composerId),
      lt(liveBroadcasts.composerHeartbeatAt, stale),
      ...(this.deadWorkers.size > 0 ? [inArray(liveBroadcasts.composerId, [...this.deadWorkers])] : []),
    );
  }

  private newStage(screen: StageScreen): ComposerStage {
    const display = claimDisplayNumber();
    return new ComposerStage(
      join(this.rootFolder, this.id, `stage-${display}`),
      display,
      (message) => this.context.log.info(`composer: ${message}`),
      screen,
    );
  }

  /**
   * The spare if one is ready on the screen this quality needs (a new one is prepared once the
   * broadcast runs), else a new stage. Spares are 720p: a 1080p broadcast waits for its own.
   */
  private async takeStage(screen: StageScreen): Promise<ComposerStage> {
    const spare = this.spare?.stage.stageScreen === screen ? this.spare : undefined;
    if (spare) this.spare = undefined;
    const ready = spare ? await spare.started : undefined;
    if (ready) return ready;
    const stage = this.newStage(screen);
    try {
      return await stage.start();
    } catch (error) {
      await stage.stop();
      throw error;
    }
  }

  /**
   * Keeps one stage started, when spares are wanted, this machine has room for another broadcast
   * and launching one now would not starve the broadcasts running here.
   */
  private prepareSpare() {
    if (this.spare || this.options.spares < 1 || this.isClosed || !this.quality()) return;
    if (!maySpareLaunchBeside(this.runningQualities(), this.options.cores)) return;
    const stage = this.newStage(HD_SCREEN);
    const started = stage.start(this.pageBaseUrl).catch(async (error: unknown) => {
      if (!this.isClosed) this.context.log.error({ err: error }, 'composer: spare failed to start');
      await stage.stop();
      return undefined;
    });
    this.spare = { stage, started };
  }

  /** Folders of workers of this machine whose process is gone: kill what they left running. */
  private cleanUpDeadWorkers() {
    if (!existsSync(this.rootFolder)) return;
    const prefix = `${hostname()}-`;
    for (const name of readdirSync(this.rootFolder)) {
      if (!name.startsWith(prefix)) continue;
      const pid = Number(name.slice(prefix.length).split('-')[0]);
      // A worker still running here (another server process on the same DATA_DIR) keeps its composers.
      if (pid > 0 && existsSync(`/proc/${pid}`)) continue;
      const folder = join(this.rootFolder, name);
      this.deadWorkers.add(name);
      killWorkerLeftovers(folder);
      rmSync(folder, { recursive: true, force: true });
    }
  }

  /**
   * On shutdown: broadcasts end cleanly (their recordings are finished) if they can within
   * CLOSE_GRACE_MS. On starved cores an encoder's or recorder's end can take longer than the
   * process's own deadline (main.ts), which then exited with the stages' Xvfb and PulseAudio still
   * running: whatever is still running then is killed (a recording is fragmented MP4, playable as cut).
   */
  async close() {
    this.isClosed = true;
    clearInterval(this.timer);
    const spare = this.spare;
    this.spare = undefined;
    // Stopped even while it is still starting: a shutdown must not wait for Chromium to come up.
    const stopped = Promise.all([
      spare?.stage.stop(),
      ...[...this.sessions.values()].map((entry) => entry.session.stop()),
    ]);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)));
    await Promise.race([stopped, late]);
    clearTimeout(timer);
    this.sessions.clear();
    killWorkerLeftovers(join(this.rootFolder, this.id));
  }
}
