export interface HlsPlayback {
  /** Seconds behind the live edge, when known. */
  latency(): number | undefined;
  /** The live edge to go back to after a pause. */
  liveEdge(): number | undefined;
  /**
   * To `seconds` behind the live edge, or the list's start if it holds less; false while nothing is
   * loaded yet to seek in (the caller then loads again from that point).
   */
  seekBehind(seconds: number): boolean;
  height(): number | undefined;
  close(): void;
}

/**
 * Which of a live broadcast's playlists (ADR 037): the low-latency one, the rewind window starting
 * `behind` seconds before its edge, or the sound alone.
 */
export type HlsRendition = { kind: 'live' } | { kind: 'rewind'; behind: number } | { kind: 'audio' };

/** `HTMLMediaElement.HAVE_METADATA`: the element knows its timeline and can be sought. */
const HAVE_METADATA = 1;

const PLAYLIST = { live: 'index.m3u8', rewind: 'dvr.m3u8', audio: 'audio.m3u8' } as const;

/** The rendition's address: the same folder as the live playlist the server names (`hls_url`). */
export const renditionUrl = (hlsUrl: string, rendition: HlsRendition) =>
  hlsUrl.replace(/index\.m3u8$/, PLAYLIST[rendition.kind]);

/**
 * Plays one of the broadcast's HLS playlists: hls.js (loaded only when needed), tuned for a short
 * delay on the live one, or the browser's own HLS where there is no MediaSource (Safari on iPhone).
 */
export async function playHls(
  video: HTMLVideoElement,
  url: string,
  onFatal: () => void,
  rendition: HlsRendition = { kind: 'live' },
): Promise<HlsPlayback> {
  const { default: Hls } = await import('hls.js');
  const behind = rendition.kind === 'rewind' ? rendition.behind : undefined;
  if (!Hls.isSupported()) {
    const liveEdge = () => (video.seekable.length > 0 ? video.seekable.end(video.seekable.length - 1) : undefined);
    if (behind !== undefined) {
      video.addEventListener(
        'loadedmetadata',
        () => {
          const edge = liveEdge();
          if (edge !== undefined) video.currentTime = Math.max(video.seekable.start(0), edge - behind);
        },
        { once: true },
      );
    }
    video.src = url;
    return {
      latency: () => {
        const edge = liveEdge();
        return edge === undefined ? undefined : Math.max(0, edge - video.currentTime);
      },
      liveEdge,
      seekBehind: (seconds) => {
        const edge = liveEdge();
        if (edge === undefined || video.readyState < HAVE_METADATA) return false;
        video.currentTime = Math.max(video.seekable.start(0), edge - seconds);
        return true;
      },
      height: () => video.videoHeight || undefined,
      close: () => video.removeAttribute('src'),
    };
  }
  const hls = new Hls(
    rendition.kind === 'live'
      ? {
          lowLatencyMode: true,
          // Two 1-s segments behind the edge (ADR 018): a second of margin for the next playlist reload and
          // segment to arrive.
          liveSyncDuration: 2,
          liveMaxLatencyDuration: 10,
          maxLiveSyncPlaybackRate: 1.2,
          backBufferLength: 10,
        }
      : // Behind on purpose: never pulled back to the edge, nor played faster to catch up with it.
        { lowLatencyMode: false, backBufferLength: 30, autoStartLoad: behind === undefined },
  );
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) onFatal();
  });
  if (behind !== undefined) {
    // Loaded from where the viewer went back to, not from the edge and then sought.
    hls.once(Hls.Events.LEVEL_LOADED, (_event, { details }) => {
      const first = details.fragments[0]?.start ?? 0;
      hls.startLoad(Math.max(first, details.edge - behind));
    });
  }
  hls.loadSource(url);
  hls.attachMedia(video);
  /** Where the broadcast is now on the playlist's clock: its last segment's end and the time since it came. */
  const estimatedEdge = () => {
    const details = hls.latestLevelDetails;
    return details ? details.edge + details.age : undefined;
  };
  return {
    // Not hls.latency: it reads 0 until the picture's first time update, and a seek taken from that
    // figure went to the wrong place.
    latency: () => {
      const edge = estimatedEdge();
      return edge === undefined || video.readyState < HAVE_METADATA ? undefined : Math.max(0, edge - video.currentTime);
    },
    liveEdge: () => hls.liveSyncPosition ?? undefined,
    seekBehind: (seconds) => {
      const details = hls.latestLevelDetails;
      const edge = estimatedEdge();
      if (!details || edge === undefined || video.readyState < HAVE_METADATA) return false;
      video.currentTime = Math.min(details.edge, Math.max(details.fragmentStart, edge - seconds));
      return true;
    },
    height: () => video.videoHeight || undefined,
    close: () => hls.destroy(),
  };
}
