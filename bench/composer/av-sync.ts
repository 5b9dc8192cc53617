import { spawnSync } from 'node:child_process';
import { percentile } from '../percentile';

/** Each frame's (or 10-ms sound block's) timestamp in seconds and a measure ffmpeg printed for it. */
function measures(file: string, stream: 'v' | 'a', filter: string, key: string) {
  const run = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-copyts', '-i', file, '-map', `0:${stream}`],
      ...[
        stream === 'v' ? '-vf' : '-af',
        `${filter},${stream === 'v' ? 'metadata' : 'ametadata'}=print:key=${key}:file=-`,
      ],
      ...['-f', 'null', '-'],
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const points: { time: number; value: number }[] = [];
  let time: number | undefined;
  for (const line of run.stdout.split('\n')) {
    const stamp = /pts_time:([\d.]+)/.exec(line);
    if (stamp) time = Number(stamp[1]);
    const measured = new RegExp(`${key}=(\\S+)`).exec(line);
    if (measured && time !== undefined) points.push({ time, value: Number(measured[1]) });
  }
  return points;
}

/** Timestamps at which the measure crosses the threshold upwards. */
function risingEdges(points: { time: number; value: number }[], threshold: number) {
  const edges: number[] = [];
  let wasAbove = false;
  for (const { time, value } of points) {
    const isAbove = Number.isFinite(value) && value > threshold;
    if (isAbove && !wasAbove) edges.push(time);
    wasAbove = isAbove;
  }
  return edges;
}

/**
 * Sound against picture in a recorded encode whose picture flashes while its sound beeps, read with
 * the file's own timestamps (`-copyts`): for each flash (the frame's mean brightness rising above
 * halfway between its usual level and its brightest), the nearest beep (the sound's 10-ms level
 * rising above −30 dBFS) within half a period. Negative: the beep comes first.
 */
export function soundMinusPicture(file: string, periodS: number) {
  const brightness = measures(file, 'v', 'scale=64:36,format=gray,signalstats', 'lavfi.signalstats.YAVG');
  const levels = brightness.map((point) => point.value).filter(Number.isFinite);
  const usual = percentile(levels, 50);
  const pictures = risingEdges(brightness, usual + (Math.max(...levels) - usual) / 2);
  const sounds = risingEdges(
    measures(file, 'a', 'asetnsamples=480,astats=metadata=1:reset=1', 'lavfi.astats.Overall.RMS_level'),
    -30,
  );
  const offsets = pictures.flatMap((picture) => {
    const near = sounds.filter((at) => Math.abs(at - picture) < periodS / 2);
    if (near.length === 0) return [];
    const nearest = near.reduce((best, at) => (Math.abs(at - picture) < Math.abs(best - picture) ? at : best));
    return [Math.round((nearest - picture) * 1000)];
  });
  return { offsets, flashes: pictures.length };
}

/** One line: the offsets' median and range, against broadcasters' tolerance. */
export function describeSync({ offsets, flashes }: { offsets: number[]; flashes: number }) {
  return `sound minus picture (negative: the beep comes first): p50 ${percentile(offsets, 50)} ms, p5 ${percentile(offsets, 5)}, p95 ${percentile(offsets, 95)} (${offsets.length} of ${flashes} flashes; broadcasters tolerate sound 40 ms early to 60 ms late, EBU R37)`;
}
