import type { ProcessInfo } from './processes.js';

/** Resident memory of each process (by role and pid) over time. */
export type MemorySeries = Map<string, { at: number; rssKb: number }[]>;

const EVERY_MS = 10_000;

/** Samples every process's memory every 10 s for `ms`, printing a line each minute. */
export async function sampleMemory(take: () => ProcessInfo[], ms: number, log: (message: string) => void) {
  const series: MemorySeries = new Map();
  const startedAt = Date.now();
  let lastLine = startedAt;
  while (Date.now() - startedAt < ms) {
    const now = Date.now();
    for (const process of take()) {
      const key = `${process.role}${process.role === 'pusher' ? ` ${process.label}` : ''} (pid ${process.pid})`;
      series.set(key, [...(series.get(key) ?? []), { at: now, rssKb: process.rssKb }]);
    }
    if (now - lastLine >= 60_000) {
      lastLine = now;
      const total = [...series.values()].reduce(
        (sum, samples) => sum + (samples.at(-1)?.at === now ? samples.at(-1)!.rssKb : 0),
        0,
      );
      log(
        `  soak: ${Math.round((now - startedAt) / 60_000)} min, all processes ${Math.round(total / 1024)} MB resident`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
  return series;
}

/**
 * For every process present from start to end: mean resident memory of the first and of the last
 * tenth of the soak (at least one sample each), and the change; flat means within 10 %.
 */
export function memoryDrift(series: MemorySeries): string[] {
  const longest = Math.max(...[...series.values()].map((samples) => samples.length));
  const lines: string[] = [];
  let worst = 0;
  for (const [key, samples] of series) {
    if (samples.length < longest || samples.length < 2) continue;
    const tenth = Math.max(1, Math.floor(samples.length / 10));
    const average = (list: typeof samples) => list.reduce((sum, sample) => sum + sample.rssKb, 0) / list.length;
    const first = average(samples.slice(0, tenth));
    const last = average(samples.slice(-tenth));
    if (first < 4096) continue; // helpers under 4 MB: a page either way is a large percentage of nothing
    const change = ((last - first) / first) * 100;
    worst = Math.max(worst, Math.abs(change));
    lines.push(
      `    ${key.replace(/rtmp:\/\/127\.0\.0\.1:(\d+)\S*/, ':$1')}: ${Math.round(first / 1024)} → ${Math.round(last / 1024)} MB (${change >= 0 ? '+' : ''}${change.toFixed(1)} %)`,
    );
  }
  return [
    `memory soak (${longest} samples, every 10 s): largest change ${worst.toFixed(1)} % (budget ≤ 10 %)`,
    ...lines,
  ];
}
