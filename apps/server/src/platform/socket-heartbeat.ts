/**
 * Engine.IO's heartbeat for every Socket.IO connection: the server pings this often and gives up on
 * a connection whose answer takes longer than the timeout. A cut link keeps its TCP open, so this is
 * how soon the room notices someone dropped (ADR 032): within 30 s instead of Engine.IO's 45, so that
 * the others' tiles say "reconnecting" sooner. The timeout stays Engine.IO's 20 s: a page starved of
 * the CPU (a composer's layout page on a loaded machine) may answer late; with 5 s, a full CI failed
 * a composer spec twice (no new push after a step down), which this is the likeliest cause of.
 */
export const SOCKET_PING_INTERVAL_MS = 10_000;
export const SOCKET_PING_TIMEOUT_MS = 20_000;
