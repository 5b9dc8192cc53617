/** The room socket's reconnect steps while the network is there: a dropped seat waits (ADR 032), every second back counts. */
export const ROOM_RECONNECT_DELAY_MS = 250;
export const ROOM_RECONNECT_DELAY_MAX_MS = 1000;
/**
 * The step while the device reports itself offline. Attempts then fail at once, and each one costs
 * the way back: Chromium delays every new WebSocket of a page by 1-5 s once its failed ones
 * outnumber its successful ones about sixteen to one (its per-process WebSocket throttle, counted
 * over 2-4 min), which a 60-s cut with a try every second reached. The `online` event reconnects at
 * once; this step only matters should that event be missed.
 */
export const OFFLINE_RECONNECT_DELAY_MS = 30_000;

/** What this needs of Socket.IO's Manager (its public setters). */
export interface ReconnectSteps {
  reconnectionDelay(ms: number): unknown;
  reconnectionDelayMax(ms: number): unknown;
}

/**
 * Holds the reconnect attempts of `manager` back while `events` (the window) says offline, and on
 * `online` restores the short steps and calls `reconnectNow`. Returns the function that stops listening.
 */
export function reconnectWhileOnline(
  manager: ReconnectSteps,
  events: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
  isOnline: () => boolean,
  reconnectNow: () => void,
): () => void {
  const setSteps = (min: number, max: number) => {
    manager.reconnectionDelay(min);
    manager.reconnectionDelayMax(max);
  };
  const onOffline = () => setSteps(OFFLINE_RECONNECT_DELAY_MS, OFFLINE_RECONNECT_DELAY_MS);
  const onOnline = () => {
    setSteps(ROOM_RECONNECT_DELAY_MS, ROOM_RECONNECT_DELAY_MAX_MS);
    reconnectNow();
  };
  if (!isOnline()) onOffline();
  events.addEventListener('offline', onOffline);
  events.addEventListener('online', onOnline);
  return () => {
    events.removeEventListener('offline', onOffline);
    events.removeEventListener('online', onOnline);
  };
}
