import { REJOIN_WINDOW_MS, type MediaStatus } from './media-types';

/** What recovery needs from the media connection it heals. */
export interface RecoveryTarget {
  isSignallingUp(): boolean;
  restartIce(): Promise<void>;
  /** Drops every handle and the session; `start` then builds them again. */
  teardown(): void;
  start(): Promise<void>;
  onStatus(status: MediaStatus): void;
}

const ICE_GRACE_MS = 2000;
const ICE_RESTART_WAIT_MS = 8000;

/**
 * The whole connection's health: ICE trouble restarts ICE first; lost signalling (or no recovery
 * within 8 s of an ICE restart) rejoins from scratch, retrying with back-off for up to 2 min before
 * it gives up and says so ('failed').
 */
export class ConnectionRecovery {
  private status: MediaStatus = 'connecting';
  private troubleSince: number | undefined;
  private iceTimer: ReturnType<typeof setTimeout> | undefined;
  private isRejoining = false;
  private isClosed = false;

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
    this.clearIceTimer();
    this.setStatus('connected');
  }

  trouble(kind: 'ice' | 'signalling') {
    if (this.isClosed) return;
    this.troubleSince ??= Date.now();
    this.setStatus('reconnecting');
    if (kind === 'ice' && this.target.isSignallingUp()) {
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

  /** Rejoins at once: the user asked to try again, or the watchdog's last step. */
  rejoinNow() {
    this.troubleSince = Date.now();
    this.setStatus('reconnecting');
    void this.rejoin();
  }

  private async rejoin() {
    if (this.isRejoining || this.isClosed) return;
    this.isRejoining = true;
    let delay = 500;
    while (!this.isClosed) {
      if (Date.now() - (this.troubleSince ?? Date.now()) > REJOIN_WINDOW_MS) {
        this.setStatus('failed');
        break;
      }
      this.target.teardown();
      try {
        await this.target.start();
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 4000);
      }
    }
    this.isRejoining = false;
  }

  private clearIceTimer() {
    if (this.iceTimer) clearTimeout(this.iceTimer);
    this.iceTimer = undefined;
  }

  close() {
    this.isClosed = true;
    this.clearIceTimer();
  }
}
