/**
 * Engine.IO's heartbeat for every Socket.IO connection: the server pings this often and gives up on
 * a connection whose answer takes longer than the timeout. A cut link keeps its TCP open, so this is
 * how soon the room notices someone dropped (ADR 032): within 15 s instead of Engine.IO's 45, so that
 * the others' tiles say "reconnecting" before their media watchdog, seeing only a frozen picture,
 * starts repairing its own connection for it.
 */
export const SOCKET_PING_INTERVAL_MS = 10_000;
export const SOCKET_PING_TIMEOUT_MS = 5_000;
