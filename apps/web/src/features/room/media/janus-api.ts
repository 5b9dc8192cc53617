import { JANUS_CLOSE_SESSION_MOVES, JANUS_PATH } from '@meetcast/contracts';
import adapter from 'webrtc-adapter';
import Janus, { type JanusJS } from 'janus-gateway';
import { debug, isDebug } from './media-types';

/** The WebSocket janus.js opened last: a session's, read right after its creation began. */
let lastSocket: WebSocket | undefined;
/**
 * Sockets a session has left behind (a reclaim moved it to a new one): what they still report (a late
 * close, a message) is not the session's any more. janus.js' reconnect clears `onclose`, but its
 * listeners are added with `addEventListener`, so the old socket's close would end the claimed session.
 */
const retiredSockets = new WeakSet<WebSocket>();
/**
 * Where the next socket goes instead of the session's own address: a session the pre-join screen
 * opened (ADR 016) has the meeting's address, which admits no claim; its claim goes with the grant.
 */
let nextSocketUrl: string | undefined;
/** janus.js calls it with `new`: a function that returns an object gives that object. */
const rememberedWebSocket = function (server: string, protocol: string) {
  const socket = new WebSocket(nextSocketUrl ?? server, protocol);
  nextSocketUrl = undefined;
  const add = socket.addEventListener.bind(socket);
  const remove = socket.removeEventListener.bind(socket);
  const guarded = new Map<unknown, EventListener>();
  socket.addEventListener = ((type: string, listener: EventListener) => {
    const guard: EventListener = (event) => {
      if (!retiredSockets.has(socket)) listener(event);
    };
    guarded.set(listener, guard);
    add(type, guard);
  }) as WebSocket['addEventListener'];
  socket.removeEventListener = ((type: string, listener: EventListener) => {
    remove(type, guarded.get(listener) ?? listener);
    guarded.delete(listener);
  }) as WebSocket['removeEventListener'];
  lastSocket = socket;
  return socket;
};
const takeLastSocket = () => {
  const socket = lastSocket;
  lastSocket = undefined;
  return socket;
};
/** The socket each session talks over now. */
const socketOfSession = new WeakMap<object, WebSocket>();
const leftBehind = new WeakMap<object, WebSocket[]>();

/** janus.js needs webrtc-adapter; we hand it over explicitly instead of relying on a global. */
let ready: Promise<void> | undefined;
function initJanus(): Promise<void> {
  ready ??= new Promise((resolve) => {
    (globalThis as { adapter?: unknown }).adapter = adapter;
    Janus.init({
      debug: ['warn', 'error'] as unknown as JanusJS.InitOptions['debug'],
      dependencies: Janus.useDefaultDependencies({ adapter, WebSocket: rememberedWebSocket }),
      callback: () => {
        // With the debug switch on, janus.js' own steps (trickled candidates, ICE states) go to the
        // console with the page's clock, beside ours.
        if (isDebug()) {
          const janus = Janus as unknown as Record<'log' | 'debug' | 'vdebug', (...args: unknown[]) => void>;
          janus.log = janus.debug = janus.vdebug = (...args) =>
            debug('janus.js', ...args.map((arg) => (typeof arg === 'object' ? JSON.stringify(arg)?.slice(0, 240) : arg)));
        }
        resolve();
      },
    });
  });
  return ready;
}

export type JanusSession = InstanceType<typeof Janus>;
export type PluginHandle = JanusJS.PluginHandle;
export type JanusMessage = JanusJS.Message;
export type Jsep = JanusJS.JSEP;
export type TrackOption = JanusJS.TrackOption;

/**
 * Who opens the media connection: an admitted participant's grant, or a pre-join screen's meeting
 * with the page's key for the connection, which its join-room.php call repeats (ADR 016).
 */
export type SessionAccess = { grant: string } | { meetId: string; key: string };

/** Our media proxy's address (ADR 003). */
function janusUrl(access: SessionAccess) {
  const origin = window.location.origin.replace(/^http/, 'ws');
  const query = new URLSearchParams(
    'grant' in access ? { grant: access.grant } : { meeting: access.meetId, key: access.key },
  );
  return `${origin}${JANUS_PATH}?${query}`;
}

/**
 * A Janus session through our proxy; `onError` hears of the connection failing once it is open.
 * janus.js reads `iceServers` when it creates each peer connection, so an array filled in later
 * (a pre-join session learns them with the join's answer) is used as it is then. `abandon` (a
 * rejoin attempt given up) closes a connection still being made: one begun as the link went down
 * would otherwise go on trying, and Chromium opens one WebSocket at a time to an address, so the
 * fresh attempt's would wait behind it.
 */
export async function openSession(
  access: SessionAccess,
  iceServers: RTCIceServer[],
  onError: (error: unknown) => void,
  abandon?: AbortSignal,
) {
  await initJanus();
  const startedAt = Date.now();
  const session = await createSession(janusUrl(access), iceServers, onError, abandon);
  debug('janus session open', `${Date.now() - startedAt} ms`);
  return session;
}

function createSession(
  server: string,
  iceServers: RTCIceServer[],
  onError: (error: unknown) => void,
  abandon?: AbortSignal,
) {
  return new Promise<JanusSession>((resolve, reject) => {
    let isOpen = false;
    takeLastSocket();
    const session: JanusSession = new Janus({
      server,
      iceServers,
      destroyOnUnload: true,
      keepAlivePeriod: 25_000,
      success: () => {
        isOpen = true;
        resolve(session);
      },
      error: (error: unknown) => {
        if (isOpen) onError(error);
        else reject(new Error(String(error)));
      },
    });
    const socket = takeLastSocket();
    if (socket) socketOfSession.set(session, socket);
    abandon?.addEventListener(
      'abort',
      () => {
        if (isOpen) return;
        reject(new Error('abandoned'));
        socket?.close();
      },
      { once: true },
    );
  });
}

/** Janus answered the claim with an error: the session is gone (timed out, or destroyed). */
export class ClaimRefused extends Error {}

/**
 * Takes a session whose connection was lost (or stalled) back over a new one (janus.js' `claim`):
 * its handles and their peer connections stay as they are, so an ICE restart is all they need
 * (ADR 032). The old socket is retired at once (nothing it reports later is the session's) and closed
 * once the claim went through, with the code that tells the proxy the session lives on. Rejects with
 * `ClaimRefused` when Janus no longer knows the session, with another error when the new connection
 * could not be made (the session may still be claimed later).
 */
export function reclaimSession(session: JanusSession, access: SessionAccess, abandon?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const old = socketOfSession.get(session);
    // The sockets of the connection lost and of attempts given up, closed once a claim goes through.
    const behind = leftBehind.get(session) ?? [];
    if (old) {
      retiredSockets.add(old);
      behind.push(old);
    }
    leftBehind.set(session, behind);
    let isSettled = false;
    takeLastSocket();
    nextSocketUrl = janusUrl(access);
    session.reconnect({
      success: () => {
        isSettled = true;
        for (const socket of behind.splice(0)) leave(socket);
        resolve();
      },
      error: (error: unknown) => {
        isSettled = true;
        const reason = String(error);
        // janus.js reports a refused claim with Janus' reason, a failed connection with its own words.
        reject(/Janus WebSockets server/.test(reason) ? new Error(reason) : new ClaimRefused(reason));
      },
    });
    nextSocketUrl = undefined;
    const socket = takeLastSocket();
    if (socket) socketOfSession.set(session, socket);
    abandon?.addEventListener(
      'abort',
      () => {
        if (isSettled) return;
        reject(new Error('abandoned'));
        // Its claim may reach Janus all the same: the next attempt claims the session from there.
        if (socket) retiredSockets.add(socket);
      },
      { once: true },
    );
  });
}

/** Closes a socket the session no longer uses, without ending the session (the proxy reads the code). */
function leave(socket: WebSocket) {
  retiredSockets.add(socket);
  if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) {
    socket.close(JANUS_CLOSE_SESSION_MOVES, 'session moves');
  }
}

export interface HandleCallbacks {
  /** `isAnswered`: the offer this message carried was answered before we owned the handle. */
  onmessage?: (message: JanusMessage, jsep?: Jsep, isAnswered?: boolean) => void;
  onlocaltrack?: (track: MediaStreamTrack, on: boolean) => void;
  onremotetrack?: (track: MediaStreamTrack, mid: string, on: boolean) => void;
  iceState?: (state: 'connected' | 'failed' | 'disconnected' | 'closed') => void;
  webrtcState?: (isConnected: boolean) => void;
  slowLink?: (uplink: boolean, lost: number, mid: string) => void;
}

export function attachVideoRoom(session: JanusSession, callbacks: HandleCallbacks) {
  return new Promise<PluginHandle>((resolve, reject) => {
    session.attach({
      plugin: 'janus.plugin.videoroom',
      success: resolve,
      error: (error: string) => reject(new Error(error)),
      ...callbacks,
    });
  });
}

/**
 * A handle attached before its owner exists (on the pre-join screen): `route` gives it its callbacks.
 * What Janus says before then (the answer to a join the click sent) waits for the owner.
 */
export interface RoutedHandle {
  route(callbacks: (handle: PluginHandle) => HandleCallbacks): Promise<PluginHandle>;
  send(message: { request: string; [field: string]: unknown }): Promise<void>;
  /** Janus' id of the handle, once attached. */
  id(): number | undefined;
  /** Once the offers that came before the owner have been answered. */
  answered(): Promise<void>;
}

/** What a subscriber sends back: nothing but its answer (a data channel keeps the connection's shape). */
export const SUBSCRIBER_TRACKS: TrackOption[] = [{ type: 'data', capture: false }];

/**
 * `answersOffersOnce`: an offer that comes before the owner is answered (`start`) as soon as this
 * resolves, unless the owner has come by then, and the owner is told it was: the proxy subscribes a
 * joiner's handle itself (ADR 016), and the page answers before it renders the call.
 */
export function attachRoutedVideoRoom(session: JanusSession, answersOffersOnce?: Promise<void>): RoutedHandle {
  let target: HandleCallbacks | undefined;
  /** Everything said before the owner took over, in order; an early answer is made before it is replayed. */
  const early: ((callbacks: HandleCallbacks) => void)[] = [];
  let answering: Promise<unknown> = Promise.resolve();
  let isOwnerComing = false;
  let ownerComes = () => undefined as void;
  const ownerCame = new Promise<void>((resolve) => (ownerComes = resolve));
  const onEarlyMessage = (message: JanusMessage, jsep: Jsep | undefined) => {
    if (!answersOffersOnce || jsep?.type !== 'offer') {
      early.push((callbacks) => callbacks.onmessage?.(message, jsep));
      return;
    }
    let isAnswered = false;
    early.push((callbacks) =>
      isAnswered ? callbacks.onmessage?.(message, undefined, true) : callbacks.onmessage?.(message, jsep),
    );
    answering = answering
      .then(async () => {
        await Promise.race([answersOffersOnce, ownerCame]);
        if (isOwnerComing) return; // The owner answers it.
        const handle = await attached;
        const local = await answer(handle, jsep, SUBSCRIBER_TRACKS);
        handle.send({ message: { request: 'start' }, jsep: local });
        isAnswered = true;
      })
      .catch(() => undefined);
  };
  const attached = attachVideoRoom(session, {
    onmessage: (message, jsep) => (target ? target.onmessage?.(message, jsep) : onEarlyMessage(message, jsep)),
    onlocaltrack: (track, on) =>
      target ? target.onlocaltrack?.(track, on) : early.push((callbacks) => callbacks.onlocaltrack?.(track, on)),
    onremotetrack: (track, mid, on) =>
      target
        ? target.onremotetrack?.(track, mid, on)
        : early.push((callbacks) => callbacks.onremotetrack?.(track, mid, on)),
    iceState: (state) => (target ? target.iceState?.(state) : early.push((callbacks) => callbacks.iceState?.(state))),
    webrtcState: (isConnected) =>
      target ? target.webrtcState?.(isConnected) : early.push((callbacks) => callbacks.webrtcState?.(isConnected)),
    slowLink: (uplink, lost, mid) => target?.slowLink?.(uplink, lost, mid),
  });
  let id: number | undefined;
  attached.then(
    (handle) => (id = Number(handle.getId())),
    () => undefined,
  );
  const answered = async () => {
    for (let settled = answering; ; settled = answering) {
      await settled;
      if (settled === answering) return;
    }
  };
  return {
    id: () => id,
    answered,
    route: async (callbacks) => {
      isOwnerComing = true;
      ownerComes();
      const handle = await attached;
      const routed = callbacks(handle);
      // Answers under way finish first, so that the owner hears of them as made.
      await answered();
      target = routed;
      // After the owner has finished taking over, as a later message would reach it.
      for (const replay of early.splice(0)) queueMicrotask(() => replay(routed));
      return handle;
    },
    send: async (message) => {
      (await attached).send({ message });
    },
  };
}

export function offer(handle: PluginHandle, params: { tracks?: TrackOption[]; iceRestart?: boolean }) {
  return new Promise<Jsep>((resolve, reject) =>
    handle.createOffer({ ...params, success: resolve, error: (error: Error) => reject(error) }),
  );
}

export function answer(handle: PluginHandle, jsep: Jsep, tracks: TrackOption[]) {
  return new Promise<Jsep>((resolve, reject) =>
    handle.createAnswer({ jsep, tracks, success: resolve, error: (error: string) => reject(new Error(error)) }),
  );
}

export function replaceTracks(handle: PluginHandle, tracks: TrackOption[]) {
  return new Promise<void>((resolve, reject) =>
    handle.replaceTracks({ tracks, success: () => resolve(), error: (error: string) => reject(new Error(error)) }),
  );
}

export function peerConnection(handle: PluginHandle | undefined): RTCPeerConnection | undefined {
  return (handle as unknown as { webrtcStuff?: { pc?: RTCPeerConnection } } | undefined)?.webrtcStuff?.pc;
}

/**
 * Sends another camera track, or none, on a publisher without renegotiating when a video transceiver
 * exists; adds one (simulcast) when the camera was off from the start.
 */
export async function switchVideoTrack(handle: PluginHandle, track: MediaStreamTrack | undefined) {
  const pc = peerConnection(handle);
  if (!pc) return;
  const transceiver = pc
    .getTransceivers()
    .find((t) => t.sender.track?.kind === 'video' || t.receiver.track.kind === 'video');
  if (transceiver?.mid) {
    if (track) await replaceTracks(handle, [{ type: 'video', mid: transceiver.mid, capture: track, dontStop: true }]);
    else await transceiver.sender.replaceTrack(null);
    return;
  }
  if (!track) return;
  const jsep = await offer(handle, {
    tracks: [{ type: 'video', capture: track, recv: false, simulcast: true, add: true, dontStop: true }],
  });
  handle.send({ message: { request: 'configure', video: true }, jsep });
}

/** Sends another microphone track on a publisher that has an audio transceiver (no renegotiation). */
export async function switchAudioTrack(handle: PluginHandle | undefined, track: MediaStreamTrack) {
  const transceiver = peerConnection(handle)
    ?.getTransceivers()
    .find((t) => t.receiver.track.kind === 'audio');
  if (handle && transceiver?.mid) {
    await replaceTracks(handle, [{ type: 'audio', mid: transceiver.mid, capture: track, dontStop: true }]);
  }
}

/** What a camera publisher sends: the microphone, and the camera in three simulcast layers. */
export function cameraTrackOptions(audio: MediaStreamTrack | undefined, video: MediaStreamTrack | undefined) {
  return [
    ...(audio ? [{ type: 'audio' as const, capture: audio, recv: false, dontStop: true }] : []),
    ...(video ? [{ type: 'video' as const, capture: video, recv: false, simulcast: true, dontStop: true }] : []),
  ];
}
