import { Handoff, HeldCallback } from '../../../lib/handoff';
import { attachRoutedVideoRoom, openSession, type JanusSession, type RoutedHandle } from './janus-api';
import { atMost } from './media-types';

/** The proxy closes a pre-join connection after 10 minutes without a join; we let it go a little sooner. */
const UNCLAIMED_MS = 9 * 60_000;

/** A pre-join screen's Janus session, with the camera's and the others' handles attached (ADR 016). */
export interface PreparedJoin {
  /** The page's random name for the connection; the join-room.php call repeats it (ADR 016). */
  key: string;
  session: JanusSession;
  publisher: RoutedHandle;
  subscriber: RoutedHandle;
  /** Empty until the join answers with the room's STUN/TURN servers; janus.js reads it later. */
  iceServers: RTCIceServer[];
  /** The session's connection failing once it is open: heard by the call once it takes over. */
  lost: HeldCallback<[unknown]>;
  /** Lets the subscriber answer an offer that came before the call: its STUN/TURN servers are in. */
  allowEarlyAnswer: () => void;
  /** Closes the connection that warmed WebRTC up (once the call's own are there, or on leaving). */
  stopWarmUp: () => void;
}

function closeOpened({ session, stopWarmUp }: PreparedJoin) {
  stopWarmUp();
  session.destroy({ cleanupHandles: true, notifyDestroyed: false });
}

function close(prepared: Promise<PreparedJoin>) {
  void prepared.then(closeOpened, () => undefined);
}

/**
 * A page's first peer connection starts the browser's WebRTC machinery (its threads, codecs, the
 * list of network interfaces): started here, with a connection that connects to nothing, it is
 * ready when Janus' offer comes after the click. Kept until the call's own connections exist.
 */
function warmUpWebRtc(): () => void {
  const connection = new RTCPeerConnection();
  connection.addTransceiver('audio', { direction: 'recvonly' });
  connection.addTransceiver('video', { direction: 'recvonly' });
  void connection
    .createOffer()
    .then((offer) => connection.setLocalDescription(offer))
    .catch(() => undefined);
  return () => connection.close();
}

const held = new Handoff<string, Promise<PreparedJoin>>(close, UNCLAIMED_MS);
/** Each prepared join once its session is open: the click reads it without waiting. */
const opened = new WeakMap<Promise<PreparedJoin>, PreparedJoin>();

/** The join prepared for this meeting, if its session is open by now (not taken). */
function openedFor(meetId: string): PreparedJoin | undefined {
  const pending = held.peek(meetId);
  return pending && opened.get(pending);
}

/** janus.js reads the array it was given when it creates a peer connection: fill that one in. */
function fillIceServers(prepared: PreparedJoin, iceServers: RTCIceServer[]) {
  prepared.iceServers.splice(0, prepared.iceServers.length, ...iceServers);
}

/**
 * While the person is on the pre-join screen of a live meeting, everything that does not need a
 * grant is done: the media connection, the Janus session, both handles. The click then only joins
 * (docs/benchmarks/room-join.md). A meeting whose room is not placed yet is refused by the proxy: nothing is prepared.
 */
export function prepareJoin(meetId: string) {
  const lost = new HeldCallback<[unknown]>();
  const iceServers: RTCIceServer[] = [];
  const key = randomKey();
  const stopWarmUp = warmUpWebRtc();
  let allowEarlyAnswer = () => undefined as void;
  const isEarlyAnswerAllowed = new Promise<void>((resolve) => (allowEarlyAnswer = resolve));
  const prepared = openSession({ meetId, key }, iceServers, lost.call).then((session) => ({
    key,
    session,
    publisher: attachRoutedVideoRoom(session),
    subscriber: attachRoutedVideoRoom(session, isEarlyAnswerAllowed),
    iceServers,
    lost,
    allowEarlyAnswer,
    stopWarmUp,
  }));
  // A session the proxy refused leaves nothing to close but the warm-up.
  prepared.catch(stopWarmUp);
  prepared.then(
    (value) => opened.set(prepared, value),
    () => undefined,
  );
  held.hold(meetId, prepared);
}

function randomKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * The click's first step: the publisher join goes out through the prepared connection at once, and
 * the join-room.php call names the connection by the key returned here; the server admits the
 * connection as it admits the person, and sends the waiting join on to Janus (ADR 016). Nothing when
 * no connection is ready: the call then joins once the grant is there.
 */
export function sendEarlyJoin(meetId: string): string | undefined {
  const prepared = openedFor(meetId);
  // The proxy subscribes the other handle as soon as Janus answers: the others' pictures, which the
  // person waits for, no longer wait for that answer's way to the page and back. The call's own
  // join names the same handle, whichever of the two the proxy passes on.
  const subscriberHandle = prepared?.subscriber.id();
  if (!prepared?.session.isConnected() || subscriberHandle === undefined) return undefined;
  void prepared.publisher
    .send({ request: 'join', ptype: 'publisher', display: 'camera', subscriber_handle: subscriberHandle })
    .catch(() => undefined);
  return prepared.key;
}

/**
 * The join was answered with the room's STUN/TURN servers: the prepared subscriber answers the offer
 * the proxy's subscription brought (ADR 016) now, while the page is otherwise idle, and the promise
 * resolves once that answer is sent (at most `capMs`), for the call to render after it.
 */
export function answerEarly(meetId: string, iceServers: RTCIceServer[], capMs: number): Promise<void> {
  const prepared = openedFor(meetId);
  if (!prepared) return Promise.resolve();
  fillIceServers(prepared, iceServers);
  prepared.allowEarlyAnswer();
  return atMost(prepared.subscriber.answered(), capMs);
}

/** The join prepared for this meeting, if any, now owned by the caller (once). */
export function takePreparedJoin(meetId: string): Promise<PreparedJoin> | undefined {
  return held.take(meetId);
}

/**
 * The prepared join for the call to use, if its connection is still open: it learns the room's
 * STUN/TURN servers now, and its connection's failures go to `onLost` from now on.
 */
export async function claimPreparedJoin(
  pending: Promise<PreparedJoin> | undefined,
  iceServers: RTCIceServer[],
  onLost: () => void,
): Promise<PreparedJoin | undefined> {
  const prepared = await pending?.catch(() => undefined);
  if (!prepared?.session.isConnected()) {
    if (prepared) closeOpened(prepared);
    return undefined;
  }
  fillIceServers(prepared, iceServers);
  prepared.lost.listen(onLost);
  prepared.stopWarmUp();
  return prepared;
}

/** The pre-join screen went away without joining. */
export function dropPreparedJoin(meetId: string) {
  const prepared = held.take(meetId);
  if (prepared) close(prepared);
}
