import { lighterThan, type Quality } from './capacity.js';

/** A reading of the encoder's `-progress`: frames out so far, and how many of them were repeats. */
export interface FrameReading {
  frame: number;
  dupFrames: number;
  /** Milliseconds, when the reading came. */
  at: number;
}

/** Delivered under this share of the target (27 of 30, 21.6 of 24) counts as low. */
const LOW_SHARE = 0.9;
/** Low for this long in a row: the machine cannot carry this quality, not a passing hiccup. */
const SUSTAINED_MS = 6000;

/**
 * Watches the frames the encode really delivers: new pictures per second of wall clock (frames
 * minus the repeats ffmpeg made to keep a constant rate, which a viewer sees as stutter). When
 * they stay under the target for several seconds, it answers the next lighter quality, once: the
 * session re-encodes at it and the host is told (ADR 021). A lighter quality
 * gets a watch of its own.
 */
export class FrameRateWatch {
  private last: FrameReading | undefined;
  private lowSince: number | undefined;
  private hasStepped = false;
  /** The last measured rate, for the log. */
  delivered = 0;

  constructor(
    private readonly quality: Quality,
    private readonly sustainedMs = SUSTAINED_MS,
  ) {}

  /** One progress reading; answers the quality to step down to when the low rate has lasted. */
  observe(reading: FrameReading): Quality | undefined {
    const previous = this.last;
    this.last = reading;
    if (!previous || reading.at <= previous.at || this.hasStepped) return undefined;
    const newPictures = reading.frame - previous.frame - (reading.dupFrames - previous.dupFrames);
    this.delivered = (newPictures * 1000) / (reading.at - previous.at);
    if (this.delivered >= this.quality.fps * LOW_SHARE) {
      this.lowSince = undefined;
      return undefined;
    }
    this.lowSince ??= previous.at;
    if (reading.at - this.lowSince < this.sustainedMs) return undefined;
    const lighter = lighterThan(this.quality);
    if (lighter) this.hasStepped = true;
    return lighter;
  }
}
