import type { BroadcastViewer } from '@meetcast/contracts';
import { Handoff, HeldCallback } from '../../../lib/handoff';
import { PAGE_DATA, pageSlug, readPageJson } from '../page-data';
import { createLiveVideo, isHlsForced, type EarlyWatch } from './early-watch-slot';
import { watchOverWebRtc, type WebRtcWatch } from '../../../lib/janus-watch';

/**
 * The early watch: on a live broadcast's page, starts watching while the HTML is still being parsed,
 * long before the app's scripts have arrived and run (the first frame within a second: docs/benchmarks/channel-player.md).
 * The build bundles this file on its own as a classic script, `early-watch.js` (vite.config.ts), and
 * the server inlines it after the page's data blocks on live pages only (og-page.ts). The player
 * takes the watch over through `takeEarlyWatch` (early-watch-slot.ts).
 */

/**
 * A watch the player never took over (the page showed something else) is closed this long after
 * the app's entry started: counted from the page's start, a busy machine's app (10-17 s to its
 * picture beside a CPU hog) came too late, found the watch closed and opened a second one.
 */
const UNCLAIMED_MS = 15_000;
/** The longest the app's entry waits for the first frame on a live page. */
const APP_WAITS_MS = 1500;

type WebRtcAccess = NonNullable<BroadcastViewer['webrtc']>;

/**
 * The live broadcast and its WebRTC access in this page's HTML, read without the shared schemas:
 * they and zod are ~180 kB of script, and evaluating them delayed the connection by a quarter of a
 * second. Only what opening the watch needs is checked; the server checks the grant, and the
 * player reads the whole block through BroadcastViewerSchema when it renders.
 */
function liveAccessInPage(): { broadcastId: number; access: WebRtcAccess } | undefined {
  const viewer = readPageJson(PAGE_DATA.broadcastViewer, pageSlug()) as Partial<BroadcastViewer> | undefined;
  const access = viewer?.webrtc;
  if (viewer?.state !== 'live' || typeof viewer.broadcast_id !== 'number' || !access) return undefined;
  const isUsable =
    typeof access.url === 'string' && typeof access.grant === 'string' && Array.isArray(access.ice_servers);
  return isUsable ? { broadcastId: viewer.broadcast_id, access } : undefined;
}

/**
 * Shows the picture in the page's loader, which covers the page until the app has rendered: the
 * viewer sees the broadcast while the rest of the page loads, and the player then moves this very
 * element, already playing, into its stage (live-player.tsx).
 */
function showInLoader(stream: MediaStream, onFirstFrame: () => void): HTMLVideoElement | undefined {
  const loader = document.getElementById('boot-loader');
  if (!loader) return undefined;
  const video = createLiveVideo('boot-loader__video');
  video.addEventListener('loadeddata', onFirstFrame, { once: true });
  video.srcObject = stream;
  loader.querySelector('.boot-loader__spinner')?.replaceWith(video);
  if (!video.isConnected) loader.append(video);
  void video.play().catch(() => undefined);
  return video;
}

/** Starts the watch; resolves once its first frame is shown, or it failed. */
function startEarlyWatch(): Promise<void> | undefined {
  const live = liveAccessInPage();
  if (!live || typeof window.RTCPeerConnection !== 'function' || isHlsForced()) return undefined;
  let shown: () => void = () => undefined;
  const firstFrame = new Promise<void>((resolve) => (shown = resolve));
  const early = new Handoff<number, EarlyWatch>(({ watch, video }) => {
    video?.remove();
    void watch.then(
      (opened) => opened.close(),
      () => undefined,
    );
  }, UNCLAIMED_MS);
  const stream = new HeldCallback<[MediaStream]>();
  const lost = new HeldCallback<[]>();
  const onStream = (received: MediaStream) => {
    // Once the player has taken the watch over, the picture is its own.
    if (early.peek(live.broadcastId) === held) held.video ??= showInLoader(received, shown);
    stream.call(received);
  };
  // A connection that cannot even be built (a bad STUN address) becomes a refusal, never an error
  // that stops the page: the player then tries on its own, and falls back as usual.
  const watch = new Promise<WebRtcWatch>((resolve) => resolve(watchOverWebRtc(live.access, onStream, lost.call)));
  watch.catch(shown);
  const held: EarlyWatch = { watch, stream, lost };
  early.hold(live.broadcastId, held);
  window.meetcastEarlyWatch = early;
  return firstFrame;
}

/**
 * Starts the app: at once, or on a live broadcast's page, where the server left its entry to this
 * script (og-page.ts), once `picture` is shown or after APP_WAITS_MS. Meanwhile the entry is fetched
 * and compiled, but not evaluated: its evaluation would hold up the connection's steps on the page's
 * one main thread, and the viewer sees the picture in the loader in the meantime.
 */
function startApp(picture: Promise<void> | undefined) {
  const block = document.getElementById(PAGE_DATA.appEntry);
  if (!block) return;
  const entry = JSON.parse(block.textContent) as string;
  let isStarted = false;
  const start = () => {
    if (isStarted) return;
    isStarted = true;
    window.meetcastEarlyWatch?.extend();
    void import(/* @vite-ignore */ entry).then(() => window.meetcastEarlyWatch?.extend());
  };
  if (!picture) return start();
  void picture.then(start);
  setTimeout(start, APP_WAITS_MS);
}

// Whatever happens to the watch, the app starts.
let picture: Promise<void> | undefined;
try {
  picture = startEarlyWatch();
} finally {
  startApp(picture);
}
