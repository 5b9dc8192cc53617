import { BroadcastViewerSchema, type BroadcastViewer } from '@meetcast/contracts';
import { Handoff, HeldCallback } from '../../../lib/handoff';
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
  watch: Promise<WebRtcWatch>;
  stream: HeldCallback<[MediaStream]>;
  lost: HeldCallback<[]>;
}

const early = new Handoff<number, EarlyWatch>(
  ({ watch }) =>
    void watch.then(
      (opened) => opened.close(),
      () => undefined,
    ),
  UNCLAIMED_MS,
);

/**
 * On a live broadcast's page, starts watching before the app's entry has been evaluated: the
 * server's HTML runs this module from a script tag of its own, ahead of the entry's (og-page.ts),
 * so the app's scripts, its route's chunk and its first render run beside the connection instead
 * of before it (issue 13: the first frame within a second). The player takes the watch over.
 */
function startEarlyWatch() {
  const viewer = readPageData(PAGE_DATA.broadcastViewer, pageSlug(), BroadcastViewerSchema);
  const access = viewer?.webrtc;
  if (!viewer || !access || viewer.state !== 'live' || viewer.broadcast_id === null) return;
  if (typeof window.RTCPeerConnection !== 'function' || isHlsForced()) return;
  const stream = new HeldCallback<[MediaStream]>();
  const lost = new HeldCallback<[]>();
  // A connection that cannot even be built (a bad STUN address) becomes a refusal, never an error
  // that stops the page: the player then tries on its own, and falls back as usual.
  const watch = new Promise<WebRtcWatch>((resolve) => resolve(watchOverWebRtc(access, stream.call, lost.call)));
  watch.catch(() => undefined);
  early.hold(viewer.broadcast_id, { watch, stream, lost });
}

/** The watch started with the page for this broadcast, if any, now owned by the caller (once). */
export function takeEarlyWatch(
  broadcastId: number | null,
  onStream: (stream: MediaStream) => void,
  onLost: () => void,
): Promise<WebRtcWatch> | undefined {
  const taken = broadcastId === null ? undefined : early.take(broadcastId);
  taken?.stream.listen(onStream);
  taken?.lost.listen(onLost);
  return taken?.watch;
}

// Once per page load: a module is evaluated once, whether the page's HTML or the player imported it.
startEarlyWatch();
