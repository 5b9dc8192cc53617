import { JANUS_PATH } from '@meetcast/contracts';
import { createSession, initJanus, type JanusSession } from './janus-api';

/** An early session nobody took over (the call never rendered) is closed after this long. */
const UNCLAIMED_MS = 15_000;

export function janusUrl(grant: string) {
  const origin = window.location.origin.replace(/^http/, 'ws');
  return `${origin}${JANUS_PATH}?grant=${encodeURIComponent(grant)}`;
}

interface EarlySession {
  grant: string;
  session: Promise<JanusSession>;
  /** Who hears of the session's connection failing once it is open; until then the error waits. */
  onError: ((error: unknown) => void) | undefined;
  pendingError: unknown;
  timer: ReturnType<typeof setTimeout>;
}

let early: EarlySession | undefined;

/**
 * Opens the Janus session the moment the join is answered, in the click's own task: the call's page
 * takes a render or two before its media starts, and the WebSocket, the proxy's checks and the
 * session's creation run meanwhile instead of after (issue 14: the click should only join).
 */
export function openEarlySession(grant: string, iceServers: RTCIceServer[]) {
  discardEarlySession();
  const entry: EarlySession = {
    grant,
    session: initJanus().then(() =>
      createSession(janusUrl(grant), iceServers, (error) => {
        if (entry.onError) entry.onError(error);
        else entry.pendingError ??= error;
      }),
    ),
    onError: undefined,
    pendingError: undefined,
    timer: setTimeout(() => discardEarlySession(), UNCLAIMED_MS),
  };
  entry.session.catch(() => undefined);
  early = entry;
}

/** The session opened early for this grant, if any, now owned by the caller (once). */
export function takeEarlySession(
  grant: string,
  onError: (error: unknown) => void,
): Promise<JanusSession> | undefined {
  const entry = early;
  if (!entry || entry.grant !== grant) return undefined;
  early = undefined;
  clearTimeout(entry.timer);
  entry.onError = onError;
  if (entry.pendingError !== undefined) queueMicrotask(() => onError(entry.pendingError));
  return entry.session;
}

function discardEarlySession() {
  const entry = early;
  early = undefined;
  if (!entry) return;
  clearTimeout(entry.timer);
  void entry.session.then(
    (session) => session.destroy({ cleanupHandles: true, notifyDestroyed: false }),
    () => undefined,
  );
}
