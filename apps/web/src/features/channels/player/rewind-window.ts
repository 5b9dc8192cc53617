import type { BroadcastViewer } from '@meetcast/contracts';
import { useEffect, useState } from 'react';
import { WINDOW_PROBE } from '@meetcast/contracts';
import { renditionUrl } from './hls-playback';

/** How often a live viewer learns how far back the rewind playlist reaches: its segments are 4 s long. */
const READ_EVERY_MS = 5000;

/**
 * Seconds of picture the rewind playlist lists: the sum of its segments' durations. This, not the time
 * since `started_at`, is how far back a viewer can go: the composer's first segment comes seconds after
 * the broadcast starts (20 s and more on a busy machine), and a rewind past the list's start lands at
 * its start, a few seconds from the edge (ADR 037).
 */
export function listedSeconds(playlist: string): number {
  let total = 0;
  for (const match of playlist.matchAll(/^#EXTINF:([\d.]+)/gm)) total += Number(match[1]);
  return total;
}

/** Closer to the edge than this is live: the rewind playlist's 4-s segments cannot play nearer. */
export const LIVE_THRESHOLD_SECONDS = 10;

/**
 * Where a viewer who asks to be `wanted` seconds behind live goes, now `behind`: as far as asked, or
 * the window's start when it holds less (`rewindable`); a step back from live at least as far as the
 * rewind plays; forward into the last seconds is live again.
 */
export function rewindTarget(wanted: number, rewindable: number, behind: number): number | 'live' {
  const target = Math.min(Math.max(0, wanted), rewindable);
  if (target >= LIVE_THRESHOLD_SECONDS) return target;
  return target <= behind ? 'live' : Math.min(LIVE_THRESHOLD_SECONDS, rewindable);
}

/** How far back the live broadcast can be rewound now, read from its rewind playlist. */
export function useRewindWindow(viewer: BroadcastViewer): number {
  // Kept with the playlist it was read from: another broadcast's window is none of this one's.
  const [read, setRead] = useState<{ url: string; seconds: number } | undefined>(undefined);
  const url =
    viewer.state === 'live' && viewer.hls_url ? renditionUrl(viewer.hls_url, { kind: 'rewind', behind: 0 }) : undefined;
  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    const readList = async () => {
      try {
        // Marked as a probe: reading the list is not watching, and must not count this viewer twice.
        const probe = new URL(url, window.location.href);
        probe.searchParams.set(WINDOW_PROBE, '1');
        const response = await fetch(probe, { signal: controller.signal });
        // Not written yet (the broadcast's first seconds): nothing to rewind.
        setRead({ url, seconds: response.ok ? listedSeconds(await response.text()) : 0 });
      } catch {
        // Offline for a moment or closed: the last known window stays until the next read.
      }
    };
    void readList();
    const timer = setInterval(() => void readList(), READ_EVERY_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [url]);
  return read && read.url === url ? read.seconds : 0;
}
