/**
 * What the bench watches inside a channel page (signed out): an init script that finds the page's
 * live `<video>` as soon as it is added and follows its decoded frames with
 * requestVideoFrameCallback: the first one's time since navigation start (performance.now), and,
 * once `reading` is set, the painted clock read from each frame (drawn 480×270 into a canvas, read
 * with the composer bench's reader) against Date.now(): glass-to-glass. It also notes when the way
 * to the first frame passed each step (the page's HTML received, its document created in the
 * renderer, the viewer API's answer, the /janus-watch socket, the offer, ICE and DTLS, the track,
 * the connection's first decoded frame, the <video> given its stream, its first data and playing),
 * by wrapping the page's WebSocket, RTCPeerConnection and media elements.
 */
import type { Page } from '@playwright/test';
import { READER_SOURCE } from '../composer/timestamp-code.js';

export interface ProbeState {
  /** performance.now() at the first decoded frame of the live video (navigation start is 0). */
  firstFrameMs: number | undefined;
  /** That frame's width. */
  firstFrameWidth: number;
  /** The page's own share: its DOMContentLoaded (since navigation start). */
  loadedMs: number | undefined;
  frames: number;
  /** Frames whose clock could be read, and their delays in ms. */
  delays: number[];
  reading: boolean;
  /** When the way to the first frame passed each step (performance.now), for the breakdown. */
  marks: Record<string, number>;
}

export const VIEWER_PROBE_SCRIPT = `(() => {
  const read = ${READER_SOURCE};
  const width = 480;
  const height = 270;
  const probe = { firstFrameMs: undefined, firstFrameWidth: 0, loadedMs: undefined, frames: 0, delays: [], reading: false, marks: {} };
  const mark = (name) => {
    if (probe.marks[name] === undefined) probe.marks[name] = performance.now();
  };
  // Init scripts run when the document is created: before that, the browser was still starting the
  // page's renderer (a process of its own in a fresh context), whatever the page and server do.
  mark('document');
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name.includes('get-broadcast-viewer')) probe.marks.viewerApi ??= entry.responseEnd;
      for (const script of ['early-watch-', 'fields-', 'index-']) {
        if (entry.name.includes('/assets/' + script)) probe.marks[script + 'fetched'] ??= entry.responseEnd;
      }
      // Every other file and call, by its name without the build's hash: when it arrived.
      const path = new URL(entry.name).pathname.replace(/-[A-Za-z0-9_-]{8}(?=\\.)/, '');
      if (/^\\/(assets|locales|api)\\//.test(path)) probe.marks['got ' + path.split('/').slice(2).join('/')] ??= entry.responseEnd;
    }
  }).observe({ type: 'resource', buffered: true });
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(url, protocols) {
      super(url, protocols);
      if (!String(url).includes('/janus-watch')) return;
      mark('socket');
      this.addEventListener('open', () => mark('socketOpen'));
    }
  };
  const NativePeer = window.RTCPeerConnection;
  if (NativePeer) {
    window.RTCPeerConnection = class extends NativePeer {
      constructor(config) {
        super(config);
        mark('peer');
        this.addEventListener('track', () => mark('track'));
        this.addEventListener('iceconnectionstatechange', () => {
          if (this.iceConnectionState === 'connected') mark('iceConnected');
        });
        this.addEventListener('connectionstatechange', () => {
          if (this.connectionState === 'connected') mark('dtlsConnected');
        });
        // The first frame decoded by the connection, whether or not a <video> shows it yet.
        const decoded = () =>
          this.getStats().then((report) => {
            let frames = 0;
            report.forEach((entry) => {
              if (entry.type === 'inbound-rtp' && entry.kind === 'video') frames += entry.framesDecoded ?? 0;
            });
            if (frames > 0) mark('decoded');
            else if (this.connectionState !== 'closed') setTimeout(decoded, 20);
          }, () => undefined);
        decoded();
      }
      setRemoteDescription(description) {
        mark('offer');
        return super.setRemoteDescription(description);
      }
    };
  }
  // The player's <video> given its stream, then its first data and playing (media events do not
  // bubble: heard while they go down to the element).
  const source = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'srcObject');
  Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', {
    ...source,
    set(value) {
      if (value) mark('attached');
      source.set.call(this, value);
    },
  });
  document.addEventListener('loadeddata', () => mark('loadeddata'), true);
  document.addEventListener('playing', () => mark('playing'), true);
  document.addEventListener('DOMContentLoaded', () => {
    probe.loadedMs = performance.now();
    const [navigation] = performance.getEntriesByType('navigation');
    probe.marks.htmlLoaded = navigation?.responseEnd;
  });
  window.__channelProbe = probe;
  let canvas;
  let context;
  const modulo = 1 << 20;
  const follow = (video) => {
    const onFrame = () => {
      const now = Date.now();
      if (probe.firstFrameMs === undefined && video.videoWidth > 0) {
        probe.firstFrameMs = performance.now();
        probe.firstFrameWidth = video.videoWidth;
      }
      probe.frames += 1;
      if (probe.reading) {
        if (!canvas) {
          canvas = document.createElement('canvas');
          canvas.width = width;
          canvas.height = height;
          context = canvas.getContext('2d', { willReadFrequently: true });
        }
        context.drawImage(video, 0, 0, width, height);
        const code = read(context.getImageData(0, 0, width, height).data, width, height, 4);
        if (code >= 0) probe.delays.push(((((now % modulo) - code) % modulo) + modulo) % modulo);
      }
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  };
  const seen = new WeakSet();
  const look = () => {
    for (const video of document.querySelectorAll('video[data-testid="live-video"]')) {
      if (seen.has(video)) continue;
      seen.add(video);
      mark('video');
      follow(video);
    }
  };
  new MutationObserver(() => {
    look();
    if (document.getElementById('root')?.firstElementChild) mark('app rendered');
  }).observe(document, { childList: true, subtree: true });
  // The main thread's long tasks (over 50 ms) before the player's <video>: what the page's own work costs.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (probe.marks.video !== undefined) continue;
      probe.marks['long tasks (sum, ms)'] = (probe.marks['long tasks (sum, ms)'] ?? 0) + entry.duration;
    }
  }).observe({ type: 'longtask', buffered: true });
})();`;

export const readProbe = (page: Page) =>
  page.evaluate(() => (window as unknown as { __channelProbe: ProbeState }).__channelProbe);

export const startReading = (page: Page) =>
  page.evaluate(() => {
    const probe = (window as unknown as { __channelProbe: ProbeState }).__channelProbe;
    probe.delays.length = 0;
    probe.reading = true;
  });
