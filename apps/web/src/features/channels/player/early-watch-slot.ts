import type { Handoff, HeldCallback } from '../../../lib/handoff';
import type { WebRtcWatch } from '../../../lib/janus-watch';

/** A watch the early watch started, with what it has heard before the player listens. */
export interface EarlyWatch {
  watch: Promise<WebRtcWatch>;
  stream: HeldCallback<[MediaStream]>;
  lost: HeldCallback<[]>;
  /** The picture, shown in the page's loader until the player takes it into its stage. */
  video?: HTMLVideoElement;
}

declare global {
  interface Window {
    /**
     * The early watch is a script of its own inlined into the page (early-watch.ts), not a module
     * of the app's bundle: the two meet here, on the window.
     */
    meetcastEarlyWatch?: Handoff<number, EarlyWatch>;
  }
}

/** A page may force the fallback (`?transport=hls`), for support and for tests of that path. */
export const isHlsForced = () => new URLSearchParams(window.location.search).get('transport') === 'hls';

/**
 * A live picture's `<video>`: muted, inline, playing by itself (browsers only let a page play sound
 * by itself after the viewer asked for it).
 */
export function createLiveVideo(className: string): HTMLVideoElement {
  const video = document.createElement('video');
  video.dataset.testid = 'live-video';
  video.className = className;
  video.muted = true;
  video.autoplay = true;
  video.playsInline = true;
  return video;
}

/** The early watch's `<video>` for this broadcast, already playing, now the caller's (once). */
export function adoptEarlyVideo(broadcastId: number | null): HTMLVideoElement | undefined {
  const early = broadcastId === null ? undefined : window.meetcastEarlyWatch?.peek(broadcastId);
  const video = early?.video;
  if (early) early.video = undefined;
  return video;
}

/** The watch started with the page for this broadcast, if any, now owned by the caller (once). */
export function takeEarlyWatch(
  broadcastId: number | null,
  onStream: (stream: MediaStream) => void,
  onLost: () => void,
): Promise<WebRtcWatch> | undefined {
  const taken = broadcastId === null ? undefined : window.meetcastEarlyWatch?.take(broadcastId);
  taken?.stream.listen(onStream);
  taken?.lost.listen(onLost);
  return taken?.watch;
}
