import { get } from 'node:http';
import { ROOM_MESSAGE, RoomAckSchema } from '@meetcast/contracts';
import { io as connect, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { JanusBrowser } from './janus-browser.js';
import type { SocketEmit } from './realtime-fuzz-cases.js';

const ANSWER_WAIT_MS = 2000;

/** GET /healthz on a connection of its own (no keep-alive pool that would count as an open socket). */
export function health(baseUrl: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${baseUrl}/healthz`, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

/** Resolves once `done` holds (checked every 50 ms), or rejects with `what` after `ms`. */
export async function waitFor(done: () => boolean | Promise<boolean>, what: string, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A Socket.IO connection attempt with any auth: how it ended (connected, or refused and why). */
export async function handshake(url: string, auth: unknown): Promise<string> {
  const socket = connect(url, {
    // The client library only sends objects; anything else travels inside one.
    auth: typeof auth === 'object' && auth !== null && !Array.isArray(auth) ? auth : { grant: auth, meetId: auth },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: ANSWER_WAIT_MS,
  });
  try {
    return await new Promise<string>((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error) => resolve(error.message));
    });
  } finally {
    socket.close();
  }
}

/** Any value as query text. */
export const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** Runs `task` over `items`, `width` at a time. */
export async function inParallel<T>(items: T[], width: number, task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

/**
 * Emits every case on a Socket.IO connection, opening a new one whenever the server closed the last
 * (an oversized frame does). Acknowledged room messages must answer with a RoomAck.
 */
export async function emitAll(open: () => Promise<Socket>, emits: SocketEmit[]) {
  let socket = await open();
  let reopened = 0;
  let unanswered = 0;
  const acks: unknown[] = [];
  for (const [index, emit] of emits.entries()) {
    if (!socket.connected) {
      socket.close();
      socket = await open();
      reopened += 1;
    }
    try {
      // The room answers the acknowledgement that follows its message; after extra arguments it has none.
      if (emit.withAck && emit.event === ROOM_MESSAGE && emit.args.length === 1) {
        const answer = await new Promise<unknown>((resolve) => {
          const timer = setTimeout(() => resolve('no answer'), ANSWER_WAIT_MS);
          socket.once('disconnect', () => resolve('disconnected'));
          socket.emit(emit.event, ...emit.args, (ack: unknown) => {
            clearTimeout(timer);
            resolve(ack);
          });
        });
        if (answer !== 'disconnected' && answer !== 'no answer') acks.push(answer);
        // Socket.IO keeps a connection that sent broken binary attachments half-open until its ping
        // times out, reading nothing more: that one is given up, as a browser would.
        if (answer === 'no answer') {
          unanswered += 1;
          socket.disconnect();
        }
      } else if (emit.withAck) {
        socket.emit(emit.event, ...emit.args, () => undefined);
      } else {
        socket.emit(emit.event, ...emit.args);
      }
    } catch {
      // The client library refuses its own reserved names (connect, disconnect...): nothing was sent.
    }
    // Now and then, the server has read everything so far: it answers a message on the same connection.
    if (index % 25 === 24 && socket.connected) {
      await new Promise((resolve) => {
        setTimeout(resolve, ANSWER_WAIT_MS);
        socket.once('disconnect', resolve);
        socket.emit(ROOM_MESSAGE, { type: 'hand.set', raised: false }, resolve);
      });
    }
  }
  socket.close();
  const malformedAcks = acks.filter((ack) => !RoomAckSchema.safeParse(ack).success);
  return { reopened, unanswered, acks: acks.length, malformedAcks };
}

/**
 * Sends every frame on a WebSocket, opening a new one whenever the server closed the last; every 25
 * frames waits for an answer to a request of its own, so the server has read the ones before.
 */
export async function sendAll(
  open: () => Promise<{ socket: WebSocket; sync: () => Promise<unknown>; ids: Record<string, number> }>,
  frames: (string | Buffer)[],
) {
  let current = await open();
  let reopened = 0;
  for (const [index, frame] of frames.entries()) {
    if (current.socket.readyState !== WebSocket.OPEN) {
      current.socket.terminate();
      current = await open();
      reopened += 1;
    }
    const sent =
      typeof frame === 'string'
        ? frame.replace(/"\$(session|handle)"/g, (_match, name: string) => String(current.ids[name] ?? 0))
        : frame;
    current.socket.send(sent);
    if (index % 25 === 24) await current.sync().catch(() => undefined);
  }
  current.socket.close();
  return { reopened };
}

/** A Janus connection through one of our proxies, with a session and a handle of its own. */
export async function janusConnection(url: string, plugin: string) {
  const browser = await JanusBrowser.open(url);
  const session = await browser.request({ janus: 'create' });
  const sessionId = (session.data as { id?: number } | undefined)?.id ?? 0;
  const handle = await browser.request({ janus: 'attach', session_id: sessionId, plugin });
  const handleId = (handle.data as { id?: number } | undefined)?.id ?? 0;
  return {
    socket: browser.socket,
    ids: { session: sessionId, handle: handleId },
    // A verb no proxy lets through is refused at once, after everything sent before it was judged.
    sync: () => browser.request({ janus: 'fuzz-sync' }),
  };
}

/** A raw Socket.IO WebSocket (Engine.IO v4), open once the server sent its open packet. */
export async function engineSocket(baseUrl: string) {
  const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
  const messages: string[] = [];
  socket.on('message', (raw) => messages.push(String(raw)));
  socket.on('error', () => undefined);
  await waitFor(() => messages.some((message) => message.startsWith('0')), 'the Engine.IO open packet', 5000);
  return {
    socket,
    ids: {},
    // An unknown namespace is always refused at once: the refusal says the server read what came before.
    sync: async () => {
      const before = messages.length;
      socket.send('40/fuzz-sync,');
      await waitFor(
        () =>
          messages.slice(before).some((message) => message.startsWith('44/fuzz-sync')) ||
          socket.readyState !== WebSocket.OPEN,
        'the refusal of an unknown namespace',
        5000,
      );
    },
  };
}

/** An upgrade to `path` with any query: the status it answered with, or 101 when it opened. */
export function upgradeStatus(baseUrl: string, pathAndQuery: string, protocol?: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}${pathAndQuery}`, protocol);
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', () => resolve(-1));
  });
}
