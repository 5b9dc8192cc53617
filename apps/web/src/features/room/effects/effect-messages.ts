import type { BackgroundChoice } from './background-choice';

/** What the page tells the background effect's worker. */
export type ToEffectWorker =
  | { type: 'load'; assetsUrl: string }
  | {
      type: 'pipe';
      /** Frames of the camera (a MediaStreamTrackProcessor's), transferred to the worker. */
      readable: ReadableStream<VideoFrame>;
      /** Where the composed frames go (a MediaStreamTrackGenerator's). */
      writable: WritableStream<VideoFrame>;
      choice: BackgroundChoice;
      frameIntervalMs: number;
    }
  | { type: 'choice'; choice: BackgroundChoice }
  /** The user's own picture, for the `image` choice (undefined: none yet; blurred meanwhile). */
  | { type: 'image'; image: ImageBitmap | undefined };

export interface EffectStats {
  /** Frames composed since the pipe started, and since the model was ready. */
  frames: number;
  segmentedFrames: number;
  /** Mean and 95th percentile of the time to process one frame over the last second or so. */
  meanMs: number;
  p95Ms: number;
}

/** What the worker tells the page. */
export type FromEffectWorker =
  | { type: 'ready' }
  | { type: 'stats'; stats: EffectStats }
  | { type: 'too-slow' }
  | { type: 'failed'; message: string };
