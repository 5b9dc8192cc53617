import type { BroadcastViewer } from '@meetcast/contracts';
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { playHls, renditionUrl, type HlsPlayback, type HlsRendition } from './hls-playback';
import { isHlsForced, takeEarlyWatch } from './early-watch-slot';
import { watchOverWebRtc, type WebRtcWatch } from '../../../lib/janus-watch';
import { rewindTarget } from './rewind-window';
import { useFreshViewerGrant } from './use-broadcast-viewer';

/** `dvr`: behind live in the rewind window; `audio`: the sound alone (ADR 037). */
export type PlaybackMode = 'connecting' | 'webrtc' | 'hls' | 'dvr' | 'audio';

export interface PlaybackFigures {
  /** Seconds behind the broadcast, when known. */
  latency: number | undefined;
  height: number | undefined;
}

const RETRY_MS = 2000;
const FIGURES_EVERY_MS = 1000;
/** A seek's position is taken as the viewer's until the figures (read every second) follow it. */
const SEEK_SETTLE_MS = 2000;

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
 * Going back in time plays the rewind playlist over HLS, "back to live" WebRTC again; the viewer may
 * also ask for the sound alone (ADR 037). `rewindable`: the seconds the rewind playlist lists now (rewind-window.ts).
 */
export function useLivePlayback(
  video: RefObject<HTMLVideoElement | null>,
  viewer: BroadcastViewer,
  rewindable: number,
) {
  const [mode, setMode] = useState<PlaybackMode>('connecting');
  const [attempt, setAttempt] = useState(0);
  const [figures, setFigures] = useState<PlaybackFigures>({ latency: undefined, height: undefined });
  const [rendition, setRendition] = useState<HlsRendition>({ kind: 'live' });
  const latest = useRef(viewer);
  useLayoutEffect(() => {
    latest.current = viewer;
  });
  const hls = useRef<HlsPlayback | undefined>(undefined);
  const isLive = viewer.state === 'live';
  const freshViewer = useFreshViewerGrant();
  const fresh = useRef(freshViewer);
  useLayoutEffect(() => {
    fresh.current = freshViewer;
  });

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
    // A jump back from WebRTC is a new HLS playback; one within the rewind playlist is a seek (seekBehind).
    const want = rendition;
    void (async () => {
      // The early watch has its own grant; a later connection may need a newer one than the page holds.
      const current = await fresh.current(latest.current);
      if (isCancelled) return;
      const canWebRtc = typeof window.RTCPeerConnection === 'function' && !isHlsForced();
      const show = (stream: MediaStream) => {
        if (element.srcObject !== stream) element.srcObject = stream;
        play();
      };
      if (want.kind === 'live' && canWebRtc && current.webrtc) {
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
      // A retry after a failure in the rewind window starts again where the viewer was.
      const from =
        want.kind === 'rewind' ? { kind: 'rewind' as const, behind: hls.current?.latency() ?? want.behind } : want;
      const playback = await playHls(element, renditionUrl(current.hls_url, from), again, from);
      if (isCancelled) return playback.close();
      hls.current = playback;
      setMode(want.kind === 'live' ? 'hls' : want.kind === 'rewind' ? 'dvr' : 'audio');
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
      element.removeAttribute('src');
      setMode('connecting');
      setFigures({ latency: undefined, height: undefined });
    };
  }, [video, isLive, viewer.broadcast_id, attempt, rendition]);

  /** Live again: WebRTC (or the low-latency HLS) from the rewind window; the edge after a pause. */
  const backToLive = () => {
    const element = video.current;
    if (!element) return;
    if (rendition.kind === 'rewind') return setRendition({ kind: 'live' });
    seekAndPlay(element, hls.current?.liveEdge());
  };

  /** Seconds behind live as the viewer sees it: none over WebRTC or the low-latency playlist. */
  const behind =
    rendition.kind !== 'rewind' ? 0 : mode === 'dvr' ? (figures.latency ?? rendition.behind) : rendition.behind;

  /** The last seek asked for: steps in quick succession add up, though the figures lag a second. */
  const lastSeek = useRef<{ behind: number; at: number } | undefined>(undefined);

  /** To `behind` seconds before the live edge: a seek within the rewind window, or into it. */
  const seekBehind = (wanted: number) => {
    const element = video.current;
    if (!element || rendition.kind === 'audio') return;
    const target = rewindTarget(wanted, rewindable, behind);
    if (target === 'live') {
      lastSeek.current = undefined;
      return backToLive();
    }
    lastSeek.current = { behind: target, at: Date.now() };
    // Within the rewind playlist once it plays; otherwise (from live, or while it is still loading)
    // it is loaded again from the new point.
    if (mode === 'dvr' && hls.current?.seekBehind(target)) return;
    setRendition({ kind: 'rewind', behind: target });
  };

  /** Forward (positive) or back by `seconds` from where the viewer is, or was just sent. */
  const seekBy = (seconds: number) => {
    const recent =
      lastSeek.current && Date.now() - lastSeek.current.at < SEEK_SETTLE_MS ? lastSeek.current.behind : undefined;
    const from = recent ?? behind;
    // Steps past the window's start ask for the point just asked: not another seek.
    if (recent !== undefined && rewindTarget(from - seconds, rewindable, from) === recent) return;
    seekBehind(from - seconds);
  };

  const isAudioOnly = rendition.kind === 'audio';
  /** Behind live or on the way there: the rewind playlist, playing or still loading. */
  const isRewound = rendition.kind === 'rewind';
  const setAudioOnly = (isOn: boolean) => setRendition(isOn ? { kind: 'audio' } : { kind: 'live' });

  return { mode, figures, behind, backToLive, seekBehind, seekBy, isAudioOnly, isRewound, setAudioOnly };
}
