import { Handoff, HeldCallback } from '../../../lib/handoff';
import { openSession, type JanusSession } from './janus-api';

/** An early session nobody took over (the call never rendered) is closed after this long. */
const UNCLAIMED_MS = 15_000;

interface EarlySession {
  session: Promise<JanusSession>;
  /** The session's connection failing once it is open: heard by the call once it takes over. */
  lost: HeldCallback<[unknown]>;
}

const early = new Handoff<string, EarlySession>(
  ({ session }) =>
    void session.then(
      (opened) => opened.destroy({ cleanupHandles: true, notifyDestroyed: false }),
      () => undefined,
    ),
  UNCLAIMED_MS,
);

/**
 * Opens the Janus session the moment the join is answered, in the click's own task: the call's page
 * takes a render or two before its media starts, and the WebSocket, the proxy's checks and the
 * session's creation run meanwhile instead of after (issue 14: the click should only join).
 */
export function openEarlySession(grant: string, iceServers: RTCIceServer[]) {
  const lost = new HeldCallback<[unknown]>();
  const session = openSession(grant, iceServers, lost.call);
  session.catch(() => undefined);
  early.hold(grant, { session, lost });
}

/** The session opened early for this grant, if any, now owned by the caller (once). */
export function takeEarlySession(grant: string, onLost: (error: unknown) => void): Promise<JanusSession> | undefined {
  const taken = early.take(grant);
  taken?.lost.listen(onLost);
  return taken?.session;
}
