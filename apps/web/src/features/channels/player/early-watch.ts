import { BroadcastViewerSchema, type BroadcastViewer } from '@meetcast/contracts';
import { PAGE_DATA, pageSlug, readPageData } from '../page-data';
import { watchOverWebRtc, type WebRtcWatch } from './janus-watch';

/** A watch the player never took over (the page showed something else) is closed after this. */
const UNCLAIMED_MS = 15_000;

/** A page may force the fallback (`?transport=hls`), for support and for tests of that path. */
export const isHlsForced = () => new URLSearchParams(window.location.search).get('transport') === 'hls';

/** The viewer state this page's HTML came with, for this meetId, while its grant is fresh. */
export function inlinedViewer(meetId: string): BroadcastViewer | undefined {
  return readPageData(PAGE_DATA.broadcastViewer, meetId, BroadcastViewerSchema);
}

interface EarlyWatch {
  broadcastId: number;
  watch: Promise<WebRtcWatch>;
  stream: MediaStream | undefined;
  isLost: boolean;
  onStream: ((stream: MediaStream) => void) | undefined;
  onLost: (() => void) | undefined;
}

let early: EarlyWatch | undefined;

/**
 * On a live broadcast's page, starts watching before React has rendered anything: the page's
 * scripts, its route's chunk and its first render then run beside the connection instead of
 * before it (issue 13: the first frame within a second). The player takes the watch over.
 */
export function startEarlyWatch() {
  const viewer = readPageData(PAGE_DATA.broadcastViewer, pageSlug(), BroadcastViewerSchema);
  const access = viewer?.webrtc;
  if (!viewer || !access || viewer.state !== 'live' || viewer.broadcast_id === null) return;
  if (typeof window.RTCPeerConnection !== 'function' || isHlsForced()) return;
  const entry: EarlyWatch = {
    broadcastId: viewer.broadcast_id,
    // Never let a connection that cannot even be built (a bad STUN address) stop the page: the
    // player then tries on its own, and falls back as usual.
    watch: safely(() =>
      watchOverWebRtc(
        access,
        (stream) => {
          entry.stream = stream;
          entry.onStream?.(stream);
        },
        () => {
          entry.isLost = true;
          entry.onLost?.();
        },
      ),
    ),
    stream: undefined,
    isLost: false,
    onStream: undefined,
    onLost: undefined,
  };
  entry.watch.catch(() => undefined);
  early = entry;
  setTimeout(() => {
    if (early !== entry) return;
    early = undefined;
    void entry.watch.then(
      (watch) => watch.close(),
      () => undefined,
    );
  }, UNCLAIMED_MS);
}

function safely<T>(start: () => Promise<T>): Promise<T> {
  try {
    return start();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The watch started with the page for this broadcast, if any, now owned by the caller (once). */
export function takeEarlyWatch(
  broadcastId: number | null,
  onStream: (stream: MediaStream) => void,
  onLost: () => void,
): Promise<WebRtcWatch> | undefined {
  const entry = early;
  if (!entry || entry.broadcastId !== broadcastId) return undefined;
  early = undefined;
  entry.onStream = onStream;
  entry.onLost = onLost;
  if (entry.stream) onStream(entry.stream);
  if (entry.isLost) queueMicrotask(onLost);
  return entry.watch;
}
