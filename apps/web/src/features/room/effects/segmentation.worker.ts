import type { BackgroundChoice } from './background-choice';
import type { EffectStats, FromEffectWorker, ToEffectWorker } from './effect-messages';
import { FrameComposer } from './frame-composer';
import { PersonSegmenter } from './person-segmenter';
import { SlowFrameWatch } from './slow-frames';

/**
 * The background effect's worker: camera frames come in through a transferred stream, are
 * segmented and composed here, and go out to the published track's generator, so the page's main
 * thread (React, the call's signalling) never waits on the model.
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ToEffectWorker>) => void) | null;
  postMessage(message: FromEffectWorker): void;
};

const composer = new FrameComposer();
let segmenter: PersonSegmenter | undefined;
let choice: BackgroundChoice = { kind: 'none' };
/** Each pipe has a number; a newer one (another camera) ends the older one's loop. */
let currentPipe = 0;

async function load(assetsUrl: string) {
  try {
    segmenter = await PersonSegmenter.load(assetsUrl);
    scope.postMessage({ type: 'ready' });
  } catch (error) {
    scope.postMessage({ type: 'failed', message: String(error) });
  }
}

function summarise(times: number[], frames: number, segmentedFrames: number): EffectStats {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, time) => sum + time, 0) / Math.max(1, sorted.length);
  return { frames, segmentedFrames, meanMs: mean, p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0 };
}

async function pipe(message: Extract<ToEffectWorker, { type: 'pipe' }>) {
  const pipeId = (currentPipe += 1);
  choice = message.choice;
  const reader = message.readable.getReader();
  const writer = message.writable.getWriter();
  const watch = new SlowFrameWatch({ frameIntervalMs: message.frameIntervalMs });
  let frames = 0;
  let segmentedFrames = 0;
  let times: number[] = [];
  let lastStatsAt = performance.now();
  let hasToldSlow = false;
  try {
    for (;;) {
      const { value: frame, done } = await reader.read();
      if (done) break;
      if (pipeId !== currentPipe) {
        frame.close();
        break;
      }
      const startedAt = performance.now();
      let composed: VideoFrame;
      try {
        const isSegmented = Boolean(segmenter);
        if (segmenter) await segmenter.segment(frame);
        composed = composer.compose(frame, choice, isSegmented ? segmenter?.mask : undefined);
        if (isSegmented) segmentedFrames += 1;
      } finally {
        frame.close();
      }
      // The generator's sink takes the frame (and closes it).
      await writer.write(composed);
      const finishedAt = performance.now();
      frames += 1;
      times.push(finishedAt - startedAt);
      // Frames before the model is ready are cheap and say nothing of the device's speed.
      if (segmenter && !hasToldSlow && watch.record(finishedAt, finishedAt - startedAt)) {
        hasToldSlow = true;
        scope.postMessage({ type: 'too-slow' });
      }
      if (finishedAt - lastStatsAt >= 1_000) {
        scope.postMessage({ type: 'stats', stats: summarise(times, frames, segmentedFrames) });
        times = [];
        lastStatsAt = finishedAt;
      }
    }
  } catch {
    // The camera track or the generator ended (camera off, switched): nothing to pass on any more.
  } finally {
    void reader.cancel().catch(() => undefined);
    void writer.close().catch(() => undefined);
  }
}

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === 'load') void load(message.assetsUrl);
  else if (message.type === 'pipe') void pipe(message);
  else if (message.type === 'image') composer.setImage(message.image);
  else choice = message.choice;
};
