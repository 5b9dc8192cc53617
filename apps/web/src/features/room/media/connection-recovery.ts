import { REJOIN_WINDOW_MS, debug, type MediaStatus } from './media-types';

/** What recovery needs from the media connection it heals. */
export interface RecoveryTarget {
  isSignallingUp(): boolean;
  restartIce(): Promise<void>;
  /** Drops every handle and the session; `start` then builds them again. */
  teardown(): void;
  start(): Promise<void>;
  /** A joined session is kept that Janus may still hold for us (ADR 032): `resume` may take it back. */
  canResume(): boolean;
  /**
   * Claims the kept session over a new connection and restarts ICE on its handles. Rejects when that
   * fails; a session Janus no longer knows is dropped, so that `canResume` is false after it.
   */
  resume(): Promise<void>;
  onStatus(status: MediaStatus): void;
  /** The device says it has no network (`navigator.onLine` false): an attempt now would fail at once. */
  isOffline(): boolean;
}

const ICE_GRACE_MS = 2000;
const ICE_RESTART_WAIT_MS = 8000;
/** Back-off between rejoin attempts: short, since each attempt is bounded and the network's return is heard. */
export const REJOIN_DELAYS_MS = [250, 500, 1000, 2000];
/**
 * One rejoin attempt (a new session through the proxy and the publisher's handle) is given up after
 * this: one started while the link was down can wait out a TCP connect's retransmissions long after
 * the link is back, and must not hold up the next attempt. Each attempt given up doubles the next
 * one's time (up to 4 times this), so that a machine too loaded to join in 6 s still joins.
 */
export const ATTEMPT_TIMEOUT_MS = 6000;
/**
 * While the device reports itself offline no attempt is made; the network's return (`networkBack`)
 * wakes the loop, and this is only how often it looks again should that signal be missed. Attempts
 * made offline fail at once and cost the way back: Chromium delays every new WebSocket of a page by
 * 1-5 s once its failed ones outnumber its successful ones about sixteen to one (its per-process
 * WebSocket throttle, counted over 2-4 min), which a 60-s cut with attempts every 1-2 s reached.
 */
export const OFFLINE_RECHECK_MS = 5000;

/**
 * The whole connection's health: ICE trouble restarts ICE first; lost signalling (or no recovery
 * within 8 s of an ICE restart) rejoins, in attempts bounded by `ATTEMPT_TIMEOUT_MS` with a short
 * back-off, for up to 2 min before it gives up and says so ('failed'). A rejoin first resumes the
 * joined session it kept (claimed back, ICE restarted: the others' subscriptions to us, and ours to
 * them, survive); once Janus refuses the claim, or ICE does not come back within 8 s of a resume, it
 * rejoins from scratch. While the device is offline the session is kept and nothing is tried.
 * `rejoinNow` (the network or the room's connection is back, or the user asked) cancels an attempt
 * still under way or its back-off and starts a fresh one at once.
 */
export class ConnectionRecovery {
  private status: MediaStatus = 'connecting';
  private troubleSince: number | undefined;
  private iceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Counts rejoin runs: a newer run makes an older one stop at its next step. */
  private run = 0;
  private isRejoining = false;
  /** Wakes the current run from its back-off (or its attempt's wait), to try again at once. */
  private wake: (() => void) | undefined;
  private isClosed = false;
  /** When the attempt under way began (none between attempts). */
  private attemptStartedAt: number | undefined;
  /** When we last heard the network was back. */
  private networkBackAt: number | undefined;
  private lastAttemptBegunAt: number | undefined;
  /** When the attempt that got through (its join sent, the connection not up yet) began. */
  private joiningSince: number | undefined;
  /** A resume got through but ICE did not come back: the next attempts rejoin from scratch. */
  private isResumeSpent = false;

  constructor(private readonly target: RecoveryTarget) {}

  current(): MediaStatus {
    return this.status;
  }

  /** Busy healing the whole connection: per-feed repairs wait. */
  isBusy(): boolean {
    return this.isRejoining || this.status === 'reconnecting' || this.iceTimer !== undefined;
  }

  private setStatus(status: MediaStatus) {
    if (this.status === status) return;
    this.status = status;
    this.target.onStatus(status);
  }

  recovered() {
    this.troubleSince = undefined;
    this.joiningSince = undefined;
    this.isResumeSpent = false;
    this.clearIceTimer();
    this.setStatus('connected');
  }

  trouble(kind: 'ice' | 'signalling') {
    if (this.isClosed) return;
    this.joiningSince = undefined;
    this.troubleSince ??= Date.now();
    this.setStatus('reconnecting');
    // Offline, an ICE restart has no network to gather on: the rejoin loop keeps the session and waits.
    if (kind === 'ice' && this.target.isSignallingUp() && !this.target.isOffline()) {
      if (this.iceTimer) return;
      this.iceTimer = setTimeout(() => {
        this.iceTimer = undefined;
        if (this.status === 'connected') return;
        void this.target.restartIce().catch(() => this.rejoin());
        this.iceTimer = setTimeout(() => {
          this.iceTimer = undefined;
          if (this.status !== 'connected') void this.rejoin();
        }, ICE_RESTART_WAIT_MS);
      }, ICE_GRACE_MS);
      return;
    }
    void this.rejoin();
  }

  /**
   * Rejoins at once: the user asked to try again, the network or the room's connection is back, or
   * the watchdog's last step (`fromScratch`: its repairs, an ICE restart among them, did not help, so
   * no session is resumed). An attempt under way (likely started while the link was down) is dropped
   * for a fresh one.
   */
  rejoinNow(options: { fromScratch?: boolean } = {}) {
    if (this.isClosed) return;
    if (options.fromScratch) this.isResumeSpent = true;
    this.troubleSince = Date.now();
    this.clearIceTimer();
    this.setStatus('reconnecting');
    if (this.isRejoining) {
      debug('recovery', 'fresh attempt now');
      this.run += 1;
      this.wake?.();
    }
    void this.rejoin();
  }

  /**
   * The network is back (the browser's `online`, then the room's connection opening again): a
   * connection in trouble rejoins at once; a healthy one, the first join still under way, or an
   * attempt begun since the network came back (the second signal must not undo the first's) are left
   * alone.
   */
  networkBack() {
    if (this.isClosed || this.status === 'connected' || this.status === 'connecting') return;
    // An attempt under way, or one whose join went through and waits for Janus' answer and ICE.
    const startedAt = this.attemptStartedAt ?? this.joiningSince;
    if (startedAt !== undefined && this.networkBackAt !== undefined && startedAt >= this.networkBackAt) return;
    this.networkBackAt = Date.now();
    this.rejoinNow();
  }

  private async rejoin() {
    if (this.isRejoining || this.isClosed) return;
    this.isRejoining = true;
    let failures = 0;
    let timeouts = 0;
    while (!this.isClosed) {
      const run = this.run;
      if (Date.now() - (this.troubleSince ?? Date.now()) > REJOIN_WINDOW_MS) {
        this.setStatus('failed');
        break;
      }
      const isResuming = !this.isResumeSpent && this.target.canResume();
      if (!isResuming) this.target.teardown();
      if (this.target.isOffline()) {
        debug('recovery', 'offline: waiting for the network');
        await this.pause(OFFLINE_RECHECK_MS);
        failures = 0;
        continue;
      }
      const outcome = await this.attempt(ATTEMPT_TIMEOUT_MS * 2 ** Math.min(timeouts, 2), () =>
        isResuming ? this.target.resume() : this.target.start(),
      );
      if (this.isClosed) break;
      if (run !== this.run) {
        // Asked for a fresh attempt meanwhile: go again at once, with the back-off from its start.
        failures = 0;
        continue;
      }
      if (outcome === 'started') {
        this.joiningSince = this.lastAttemptBegunAt;
        if (isResuming) this.awaitIceAfterResume();
        break;
      }
      if (outcome === 'timed-out') timeouts += 1;
      debug('recovery', 'attempt', outcome);
      await this.pause(REJOIN_DELAYS_MS[Math.min(failures, REJOIN_DELAYS_MS.length - 1)]!);
      failures += 1;
    }
    this.isRejoining = false;
  }

  /** A resumed session's ICE must come back in time; if not, the next attempt starts from scratch. */
  private awaitIceAfterResume() {
    this.clearIceTimer();
    this.iceTimer = setTimeout(() => {
      this.iceTimer = undefined;
      if (this.status === 'connected') return;
      debug('recovery', 'resumed session still without ICE: rejoining from scratch');
      this.isResumeSpent = true;
      void this.rejoin();
    }, ICE_RESTART_WAIT_MS);
  }

  /** One start (or resume), given up after `timeoutMs` or when woken for a fresh one. */
  private attempt(timeoutMs: number, begin: () => Promise<void>) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.attemptStartedAt = Date.now();
    this.lastAttemptBegunAt = this.attemptStartedAt;
    return new Promise<'started' | 'failed' | 'timed-out' | 'woken'>((resolve) => {
      timer = setTimeout(() => resolve('timed-out'), timeoutMs);
      this.wake = () => resolve('woken');
      begin().then(
        () => resolve('started'),
        () => resolve('failed'),
      );
    }).finally(() => {
      clearTimeout(timer);
      this.wake = undefined;
      this.attemptStartedAt = undefined;
    });
  }

  private pause(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (this.wake = undefined));
  }

  private clearIceTimer() {
    if (this.iceTimer) clearTimeout(this.iceTimer);
    this.iceTimer = undefined;
  }

  close() {
    this.isClosed = true;
    this.clearIceTimer();
    this.wake?.();
  }
}
