import type { Quality } from './capacity.js';
import type { ProcessLedger } from './child-processes.js';
import { Encoder } from './encoder.js';
import { FlvFanOut } from './flv-fan-out.js';
import { FrameRateWatch } from './frame-rate-watch.js';
import { MediaFanOut } from './media-fan-out.js';
import type { VirtualScreen } from './virtual-screen.js';
import { backoffDelay, type BackoffSchedule } from '../../platform/backoff.js';

/** Times in a row an encoder that exits by itself is started again before the broadcast fails. */
const MAX_RESTARTS = 3;
/**
 * An encoder that delivered this long was not a crash loop: its death starts the count again. Counted
 * over the whole broadcast, the fourth encoder death of a one-hour show (a killed ffmpeg, an OOM kill)
 * ended it, however far apart they were.
 */
const STABLE_MS = 10_000;
const RESTART: BackoffSchedule = { firstMs: 1000, maxMs: 1000, factor: 1 };

export interface EncodeHooks {
  log: (message: string) => void;
  /** The encoder kept failing: the broadcast cannot go on. */
  onFailed: () => void;
  /** The encode stepped down to a lighter quality (the host is told through the broadcast's row). */
  onQuality: (quality: Quality) => Promise<void>;
}

/**
 * The one encode of a broadcast over its whole life: the encoder, started again when it fails or
 * steps down, always continuing the clock of the first one (ADR 021), and its two outputs shared
 * by every reader: MPEG-TS (recording, viewers) and FLV (destinations).
 */
export class BroadcastEncode {
  readonly fanOut = new MediaFanOut();
  readonly flvFanOut = new FlvFanOut();
  private encoder: Encoder | undefined;
  private watch: FrameRateWatch | undefined;
  private firstStartAt: number | undefined;
  private restarts = 0;
  private isStopped = false;

  constructor(
    private readonly ledger: ProcessLedger,
    private readonly screen: VirtualScreen,
    /** What the encode runs at: lighter than asked when the machine cannot deliver its frames. */
    public quality: Quality,
    private readonly hooks: EncodeHooks,
  ) {}

  /** The pictures really delivered (repeats not counted), once measured; ffmpeg's average until then. */
  get fps() {
    return this.watch?.delivered || (this.encoder?.fps ?? 0);
  }

  start() {
    if (this.isStopped) return;
    this.firstStartAt ??= Date.now();
    const startedAt = Date.now();
    const encoder = new Encoder(this.ledger, this.screen, this.quality, (startedAt - this.firstStartAt) / 1000);
    this.encoder = encoder;
    this.flvFanOut.newStream();
    const watch = new FrameRateWatch(this.quality);
    this.watch = watch;
    encoder.on('progress', (reading) => {
      const lighter = watch.observe(reading);
      if (lighter && this.encoder === encoder && !this.isStopped) void this.stepDown(encoder, lighter);
    });
    encoder.once('data', () => {
      this.hooks.log(`encoder first bytes, ${Date.now() - startedAt} ms after its start`);
      const stable = setTimeout(() => {
        if (this.encoder === encoder) this.restarts = 0;
      }, STABLE_MS);
      stable.unref();
    });
    encoder.on('data', (chunk) => this.fanOut.write(chunk));
    // A replaced encoder's last bytes may arrive after its successor started: they would cut into its stream.
    encoder.on('flv', (chunk) => {
      if (this.encoder === encoder) this.flvFanOut.write(chunk);
    });
    encoder.on('exit', (reason) => {
      this.hooks.log(reason);
      if (this.isStopped || this.encoder !== encoder) return;
      // The encode is the broadcast: bring it back a few times before giving up.
      if (this.restarts++ < MAX_RESTARTS) setTimeout(() => this.start(), backoffDelay(this.restarts, RESTART)).unref();
      else this.hooks.onFailed();
    });
    encoder.start();
  }

  /** The encode's first bytes, or the moment to stop waiting for them (a failed encode restarts). */
  firstBytes(waitMs: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      this.encoder?.once('data', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * The machine does not deliver this quality's frames: encode lighter on purpose rather than
   * stutter. The new encoder continues the clock, so the destinations and the recording go on
   * with no break but the switch's fraction of a second.
   */
  private async stepDown(encoder: Encoder, lighter: Quality) {
    const delivered = (this.watch?.delivered ?? 0).toFixed(1);
    this.hooks.log(`delivering ${delivered} fps of ${this.quality.fps}: stepping down to ${lighter.name}`);
    this.quality = lighter;
    this.encoder = undefined;
    await encoder.stop();
    if (this.isStopped) return;
    this.start();
    await this.hooks
      .onQuality(lighter)
      .catch((error: unknown) => this.hooks.log(`quality not written: ${String(error)}`));
  }

  async stop() {
    this.isStopped = true;
    this.flvFanOut.stop();
    const encoder = this.encoder;
    this.encoder = undefined;
    await encoder?.stop();
  }
}
