export interface HlsPlayback {
  /** Seconds behind the live edge, when known. */
  latency(): number | undefined;
  /** The live edge to go back to after a pause. */
  liveEdge(): number | undefined;
  height(): number | undefined;
  close(): void;
}

/**
 * Plays the broadcast's HLS playlist: hls.js (loaded only when needed) tuned for a short delay, or
 * the browser's own HLS where there is no MediaSource (Safari on iPhone).
 */
export async function playHls(video: HTMLVideoElement, url: string, onFatal: () => void): Promise<HlsPlayback> {
  const { default: Hls } = await import('hls.js');
  if (!Hls.isSupported()) {
    video.src = url;
    return {
      latency: () => undefined,
      liveEdge: () => (video.seekable.length > 0 ? video.seekable.end(video.seekable.length - 1) : undefined),
      height: () => video.videoHeight || undefined,
      close: () => video.removeAttribute('src'),
    };
  }
  const hls = new Hls({
    lowLatencyMode: true,
    // Two 1-s segments behind the edge (ADR 018): a second of margin for the next playlist reload and
    // segment to arrive.
    liveSyncDuration: 2,
    liveMaxLatencyDuration: 10,
    maxLiveSyncPlaybackRate: 1.2,
    backBufferLength: 10,
  });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) onFatal();
  });
  hls.loadSource(url);
  hls.attachMedia(video);
  return {
    latency: () => (Number.isFinite(hls.latency) ? hls.latency : undefined),
    liveEdge: () => hls.liveSyncPosition ?? undefined,
    height: () => video.videoHeight || undefined,
    close: () => hls.destroy(),
  };
}
