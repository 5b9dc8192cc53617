import type { BackgroundChoice } from './background-choice';
import type { EffectStats, FromEffectWorker, ToEffectWorker } from './effect-messages';

/** Chromium's insertable streams for camera tracks (not in TypeScript's DOM library). */
interface TrackProcessor {
  readable: ReadableStream<VideoFrame>;
}
interface TrackGenerator extends MediaStreamTrack {
  writable: WritableStream<VideoFrame>;
}
interface InsertableStreams {
  MediaStreamTrackProcessor: new (init: { track: MediaStreamTrack }) => TrackProcessor;
  MediaStreamTrackGenerator: new (init: { kind: 'video' }) => TrackGenerator;
}

const insertable = (typeof window === 'undefined' ? {} : window) as Partial<InsertableStreams>;

/**
 * Whether this browser can process camera frames off the main thread: insertable streams (Chromium),
 * OffscreenCanvas and VideoFrame. Elsewhere the background picker is not offered.
 */
export const canUseBackgroundEffects =
  Boolean(insertable.MediaStreamTrackProcessor && insertable.MediaStreamTrackGenerator) &&
  typeof OffscreenCanvas !== 'undefined' &&
  typeof VideoFrame !== 'undefined';

/** The build copies the model and LiteRT's WebAssembly here (apps/web/vite.config.ts). */
const ASSETS_PATH = '/background-effects/';

export type EffectTrouble = 'too-slow' | 'failed';

/**
 * One background effect: a worker that loads the segmentation model once and turns camera tracks
 * into tracks with the chosen background. Created when the user turns an effect on, closed when
 * they turn it off (the model's memory goes with the worker).
 */
export class BackgroundEffect {
  private readonly worker: Worker;
  private output: MediaStreamTrack | undefined;
  private lastStats: EffectStats | undefined;

  constructor(onTrouble: (trouble: EffectTrouble) => void) {
    // A classic worker (the build's default format): LiteRT loads its WebAssembly glue with importScripts.
    this.worker = new Worker(new URL('./segmentation.worker.ts', import.meta.url), { name: 'background-effect' });
    this.worker.onmessage = (event: MessageEvent<FromEffectWorker>) => {
      const message = event.data;
      if (message.type === 'stats') this.lastStats = message.stats;
      else if (message.type === 'too-slow' || message.type === 'failed') onTrouble(message.type);
    };
    this.worker.onerror = () => onTrouble('failed');
    this.post({ type: 'load', assetsUrl: new URL(ASSETS_PATH, window.location.href).href });
    // Read by the CPU bench (bench/background-effects.ts) and the end-to-end test.
    (window as unknown as { __meetcastBackground?: unknown }).__meetcastBackground = { stats: () => this.lastStats };
  }

  /** A new track that shows `camera` with `choice` applied; the previous output track ends. */
  apply(camera: MediaStreamTrack, choice: BackgroundChoice): MediaStreamTrack {
    const { MediaStreamTrackProcessor, MediaStreamTrackGenerator } = insertable as InsertableStreams;
    const processor = new MediaStreamTrackProcessor({ track: camera });
    const generator = new MediaStreamTrackGenerator({ kind: 'video' });
    this.output?.stop();
    this.output = generator;
    // Tests set the time a frame may take (`__meetcastFrameBudgetMs`): generous to prove the effect on
    // a loaded test machine, tiny to prove the fallback; people get the camera's frame interval.
    const testBudget = (window as unknown as { __meetcastFrameBudgetMs?: number }).__meetcastFrameBudgetMs;
    const frameIntervalMs = testBudget ?? 1000 / (camera.getSettings().frameRate || 30);
    this.post({ type: 'pipe', readable: processor.readable, writable: generator.writable, choice, frameIntervalMs }, [
      processor.readable,
      generator.writable,
    ]);
    return generator;
  }

  /** The user's picture for the `image` choice (copied to the worker: the picker still shows it). */
  setImage(image: ImageBitmap | undefined) {
    this.post({ type: 'image', image });
  }

  /** Changes the background of the current output in place (no new track, nothing to renegotiate). */
  choose(choice: BackgroundChoice) {
    this.post({ type: 'choice', choice });
  }

  close() {
    this.output?.stop();
    this.output = undefined;
    this.worker.terminate();
  }

  private post(message: ToEffectWorker, transfer: Transferable[] = []) {
    this.worker.postMessage(message, transfer);
  }
}
