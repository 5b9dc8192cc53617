import { io as connect, type Socket } from 'socket.io-client';

/**
 * A Socket.IO client for tests that records every event of one kind it receives, parsed by the
 * contract's schema, and waits for the next one that matches (the room's and the viewer chat's).
 */
export class RecordingSocket<E extends { type: string }> {
  readonly events: E[] = [];
  readonly socket: Socket;
  private readonly waiters: { test: (event: E) => boolean; resolve: (event: E) => void }[] = [];

  constructor(url: string, auth: Record<string, unknown>, eventName: string, parse: (payload: unknown) => E) {
    this.socket = connect(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
    this.socket.on(eventName, (payload: unknown) => {
      const event = parse(payload);
      this.events.push(event);
      for (const waiter of [...this.waiters]) {
        if (!waiter.test(event)) continue;
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    });
  }

  connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.connected) return resolve();
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', reject);
    });
  }

  refused(): Promise<string> {
    return new Promise((resolve) => this.socket.once('connect_error', (error) => resolve(error.message)));
  }

  /** The first event of this type (received already, or next) that `where` accepts. */
  next<T extends E['type']>(
    type: T,
    where: (event: Extract<E, { type: T }>) => boolean = () => true,
    timeoutMs = 8000,
  ): Promise<Extract<E, { type: T }>> {
    type Wanted = Extract<E, { type: T }>;
    const test = (event: E) => event.type === type && where(event as Wanted);
    const seen = this.events.find(test);
    if (seen) return Promise.resolve(seen as Wanted);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} event within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        test,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event as Wanted);
        },
      });
    });
  }

  close() {
    this.socket.close();
  }
}
