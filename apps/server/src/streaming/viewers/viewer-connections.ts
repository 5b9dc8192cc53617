import type WebSocket from 'ws';

/**
 * A page opens one connection per grant, and one more while it reconnects: a grant is for one
 * viewer, so the rest are refused.
 */
export const VIEWER_CONNECTIONS_PER_GRANT = 2;

export interface ViewerConnectionLimits {
  perGrant: number;
  perAddress: number;
  perBroadcast: number;
}

/**
 * The viewer connections open in this process, counted by grant, by client address and by
 * broadcast, so that one grant or one address cannot open hundreds of Janus sessions; and the open
 * sockets of each broadcast, so that its audience can be dropped at once.
 */
export class ViewerConnections {
  private readonly counts = new Map<string, number>();
  private readonly sockets = new Map<number, Set<WebSocket>>();

  constructor(private readonly limits: ViewerConnectionLimits) {}

  /**
   * Takes a place for a new connection before anything is awaited (so that a burst cannot pass the
   * check together), or undefined when one of the limits is reached. The release is idempotent.
   */
  reserve(grant: string, address: string, broadcastId: number): (() => void) | undefined {
    const places: [string, number][] = [
      // Viewers asking in the same second get the same grant (it names only the broadcast and its
      // expiry second, ADR 034): a grant is one viewer only at one address, or a shared link's burst
      // of viewers would be refused but for the first two.
      [`grant:${grant}@${address}`, this.limits.perGrant],
      [`address:${address}`, this.limits.perAddress],
      [`broadcast:${broadcastId}`, this.limits.perBroadcast],
    ];
    if (places.some(([key, limit]) => (this.counts.get(key) ?? 0) >= limit)) return undefined;
    for (const [key] of places) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      for (const [key] of places) {
        const left = (this.counts.get(key) ?? 1) - 1;
        if (left > 0) this.counts.set(key, left);
        else this.counts.delete(key);
      }
    };
  }

  track(broadcastId: number, socket: WebSocket) {
    const open = this.sockets.get(broadcastId) ?? new Set<WebSocket>();
    open.add(socket);
    this.sockets.set(broadcastId, open);
  }

  untrack(broadcastId: number, socket: WebSocket) {
    const open = this.sockets.get(broadcastId);
    open?.delete(socket);
    if (open?.size === 0) this.sockets.delete(broadcastId);
  }

  broadcastIds(): number[] {
    return [...this.sockets.keys()];
  }

  socketsOf(broadcastId: number): WebSocket[] {
    return [...(this.sockets.get(broadcastId) ?? [])];
  }

  /** Open connections in this process (all broadcasts), for tests and logs. */
  get size() {
    let total = 0;
    for (const open of this.sockets.values()) total += open.size;
    return total;
  }
}
