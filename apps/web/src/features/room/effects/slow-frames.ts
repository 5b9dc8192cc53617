/**
 * Decides when the device is too slow for the background effect: processing frames has taken
 * longer than the camera's frame interval for a whole window of time (not one hiccup, such as the
 * first frames after the model loads or a burst of work elsewhere). Then the effect is better off
 * than a video that stutters further and further behind.
 */
export interface SlowFrameOptions {
  /** The camera's nominal time between frames. */
  frameIntervalMs: number;
  /** How long processing must stay too slow before giving up. */
  windowMs?: number;
  /** Share of the frames in the window that may exceed the interval without counting as slow. */
  toleratedShare?: number;
}

export class SlowFrameWatch {
  private readonly frameIntervalMs: number;
  private readonly windowMs: number;
  private readonly toleratedShare: number;
  private samples: { at: number; isSlow: boolean }[] = [];
  private firstAt: number | undefined;

  constructor({ frameIntervalMs, windowMs = 5_000, toleratedShare = 0.5 }: SlowFrameOptions) {
    this.frameIntervalMs = frameIntervalMs;
    this.windowMs = windowMs;
    this.toleratedShare = toleratedShare;
  }

  /**
   * Records one processed frame (`at`: when it finished, in ms; `processingMs`: how long it took)
   * and answers whether the device has been too slow for the whole window.
   */
  record(at: number, processingMs: number): boolean {
    this.firstAt ??= at;
    this.samples.push({ at, isSlow: processingMs > this.frameIntervalMs });
    while (this.samples.length > 0 && this.samples[0]!.at < at - this.windowMs) this.samples.shift();
    // Judge only once a whole window has been seen.
    if (at - this.firstAt < this.windowMs) return false;
    const slow = this.samples.filter((sample) => sample.isSlow).length;
    return slow > this.samples.length * this.toleratedShare;
  }

  reset() {
    this.samples = [];
    this.firstAt = undefined;
  }
}
