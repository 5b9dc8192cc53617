import type { BroadcastViewer } from '@meetcast/contracts';
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { playHls, type HlsPlayback } from './hls-playback';
import { isHlsForced, takeEarlyWatch } from './early-watch-slot';
import { watchOverWebRtc, type WebRtcWatch } from './janus-watch';

export type PlaybackMode = 'connecting' | 'webrtc' | 'hls';

export interface PlaybackFigures {
  /** Seconds behind the broadcast, when known. */
  latency: number | undefined;
  height: number | undefined;
}

const RETRY_MS = 2000;
const FIGURES_EVERY_MS = 1000;

async function webRtcFigures(peer: RTCPeerConnection): Promise<PlaybackFigures> {
  const report = await peer.getStats();
  let figures: PlaybackFigures = { latency: undefined, height: undefined };
  report.forEach((entry: Record<string, unknown>) => {
    if (entry.type !== 'inbound-rtp' || entry.kind !== 'video') return;
    const delay = Number(entry.jitterBufferDelay);
    const emitted = Number(entry.jitterBufferEmittedCount);
    figures = {
      latency: emitted > 0 ? delay / emitted : undefined,
      height: typeof entry.frameHeight === 'number' ? entry.frameHeight : undefined,
    };
  });
  return figures;
}

function detach(element: HTMLVideoElement) {
  element.srcObject = null;
}

function seekAndPlay(element: HTMLVideoElement, at: number | undefined) {
  if (at !== undefined) element.currentTime = at;
  void element.play().catch(() => undefined);
}

/**
 * Plays a live broadcast in `video`: WebRTC through our Janus proxy first (well under a second
 * behind), HLS when the browser has no RTCPeerConnection or WebRTC cannot connect (UDP blocked).
 * A lost connection is tried again; the latest grant is read when it is, never a stale one.
 */
export function useLivePlayback(video: RefObject<HTMLVideoElement | null>, viewer: BroadcastViewer) {
  const [mode, setMode] = useState<PlaybackMode>('connecting');
  const [attempt, setAttempt] = useState(0);
  const [figures, setFigures] = useState<PlaybackFigures>({ latency: undefined, height: undefined });
  const latest = useRef(viewer);
  useLayoutEffect(() => {
    latest.current = viewer;
  });
  const hls = useRef<HlsPlayback | undefined>(undefined);
  const isLive = viewer.state === 'live';

  // Before the browser paints the player, not after: the connection usually has a picture already,
  // and a passive effect came a frame or more later (118 ms on a busy machine, bench/channel-player.ts).
  useLayoutEffect(() => {
    const element = video.current;
    if (!isLive || !element) return;
    let isCancelled = false;
    let webrtc: WebRtcWatch | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stats: ReturnType<typeof setInterval> | undefined;
    const again = () => {
      if (isCancelled) return;
      clearTimeout(retry);
      retry = setTimeout(() => setAttempt((count) => count + 1), RETRY_MS);
    };
    const play = () => void element.play().catch(() => undefined);
    void (async () => {
      const current = latest.current;
      const canWebRtc = typeof window.RTCPeerConnection === 'function' && !isHlsForced();
      const show = (stream: MediaStream) => {
        if (element.srcObject !== stream) element.srcObject = stream;
        play();
      };
      if (canWebRtc && current.webrtc) {
        const access = current.webrtc;
        try {
          // The watch the page started with its HTML; if its grant was refused (a page kept too
          // long), once more with the latest one. A timeout means blocked: the fallback below.
          const early = takeEarlyWatch(current.broadcast_id, show, again);
          webrtc = await (early
            ? early.catch((error: unknown) => {
                if (error instanceof Error && error.message === 'webrtc_timeout') throw error;
                return watchOverWebRtc(latest.current.webrtc ?? access, show, again);
              })
            : watchOverWebRtc(access, show, again));
          if (isCancelled) return webrtc.close();
          setMode('webrtc');
          const peer = webrtc.peer;
          stats = setInterval(() => void webRtcFigures(peer).then(setFigures, () => undefined), FIGURES_EVERY_MS);
          return;
        } catch {
          // Blocked or unreachable: the fallback below.
        }
      }
      if (isCancelled || !current.hls_url) return again();
      const playback = await playHls(element, current.hls_url, again);
      if (isCancelled) return playback.close();
      hls.current = playback;
      setMode('hls');
      play();
      stats = setInterval(
        () => setFigures({ latency: playback.latency(), height: playback.height() }),
        FIGURES_EVERY_MS,
      );
    })().catch(again);
    return () => {
      isCancelled = true;
      clearTimeout(retry);
      clearInterval(stats);
      webrtc?.close();
      hls.current?.close();
      hls.current = undefined;
      detach(element);
      setMode('connecting');
    };
  }, [video, isLive, viewer.broadcast_id, attempt]);

  /** After a pause: WebRTC is always at the edge once playing; HLS seeks back to it. */
  const backToLive = () => {
    const element = video.current;
    if (!element) return;
    seekAndPlay(element, hls.current?.liveEdge());
  };

  return { mode, figures, backToLive };
}
