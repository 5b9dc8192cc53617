import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { JanusBridge, type Admitted, type BridgeHost } from './bridge.js';

/**
 * The /janus bridge's states against real sockets: a stand-in Janus that answers as Janus does, and
 * a browser connected over a WebSocket server of the test's own.
 */

const PLACED = { server: 'local', room: 4242, secret: 'room-secret', pin: 'room-pin' };

interface Started {
  close(): Promise<void>;
}
const started: Started[] = [];
afterEach(async () => {
  for (const item of started.splice(0).reverse()) await item.close();
});

function portOf(server: { address(): AddressInfo | string | null }) {
  return (server.address() as AddressInfo).port;
}

/** A Janus that answers create, attach and a publisher's join, and keeps what it was sent. */
async function standInJanus() {
  const received: Record<string, unknown>[] = [];
  /** Connections closed by the proxy: whatever it sent over one before closing it has been received. */
  const closed = { count: 0 };
  const server = new WebSocketServer({ port: 0, handleProtocols: () => 'janus-protocol' });
  await once(server, 'listening');
  server.on('connection', (socket) => {
    socket.on('close', () => (closed.count += 1));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as Record<string, unknown> & { transaction: string };
      received.push(message);
      const answer = (reply: object) => socket.send(JSON.stringify({ ...reply, transaction: message.transaction }));
      if (message.janus === 'create') answer({ janus: 'success', data: { id: 11 } });
      if (message.janus === 'attach') answer({ janus: 'success', session_id: 11, data: { id: 22 } });
      if (message.janus === 'message') {
        answer({ janus: 'ack', session_id: 11 });
        const data = { videoroom: 'joined', room: PLACED.room, id: 77, publishers: [] };
        answer({ janus: 'event', session_id: 11, sender: 22, plugindata: { plugin: 'janus.plugin.videoroom', data } });
      }
    });
  });
  started.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
  return { url: `ws://127.0.0.1:${portOf(server)}`, received, closed };
}

/** A TCP server that takes connections and never answers: an upstream forever connecting. */
async function silentUpstream() {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.resume(); // reads the upgrade request it never answers, so that it sees the connection end
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  started.push({
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  });
  return { url: `ws://127.0.0.1:${portOf(server)}`, sockets };
}

function recordingHost(admitted: Admitted | { refused: 401 }) {
  const calls = {
    admit: [] as string[],
    forget: 0,
    kicked: [] as [string, number][],
    claimed: [] as [string, number, JanusBridge][],
    warnings: [] as unknown[],
  };
  const sessions = new Map<string, Set<number>>();
  const host: BridgeHost = {
    admit: (grant) => {
      calls.admit.push(grant);
      return Promise.resolve(admitted);
    },
    sessionsOf: (participantId) =>
      sessions.get(participantId) ?? sessions.set(participantId, new Set()).get(participantId)!,
    replaceStale: () => undefined,
    claimed: (participantId, sessionId, by) => void calls.claimed.push([participantId, sessionId, by]),
    kickFeed: (_placed, display, keepId) => void calls.kicked.push([display, keepId]),
    forget: () => void (calls.forget += 1),
    warn: (error) => void calls.warnings.push(error),
  };
  return { host, calls, sessions };
}

/** A browser connected to a bridge towards `upstreamUrl`, admitted at once or prepared (no grant yet). */
async function connect(upstreamUrl: string, host: BridgeHost, admitted: Admitted | undefined) {
  const server = new WebSocketServer({ port: 0 });
  await once(server, 'listening');
  const target = { url: upstreamUrl, apiSecret: 'api-secret', adminKey: undefined };
  const bridged = new Promise<{ bridge: JanusBridge; socket: WebSocket }>((resolve) => {
    server.once('connection', (socket) => {
      const origin = { meetingId: 5, address: '127.0.0.1', joinKey: admitted ? undefined : 'k'.repeat(24) };
      resolve({ bridge: new JanusBridge(socket, target, origin, admitted, host), socket });
    });
  });
  const browser = new WebSocket(`ws://127.0.0.1:${portOf(server)}`);
  const seen: Record<string, unknown>[] = [];
  browser.on('message', (raw) => seen.push(JSON.parse(String(raw)) as Record<string, unknown>));
  await once(browser, 'open');
  const { bridge, socket } = await bridged;
  started.push({
    close: () => {
      browser.terminate();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  });
  const send = (message: object) => browser.send(JSON.stringify(message));
  return { bridge, socket, browser, seen, send };
}

async function until(condition: () => boolean, what: string) {
  for (let waited = 0; waited < 3000; waited += 10) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never: ${what}`);
}

const ADMITTED: Admitted = {
  participantId: 'p1',
  meetingId: 5,
  placed: PLACED,
  target: { url: '', apiSecret: 'api-secret', adminKey: undefined },
};

describe('JanusBridge', () => {
  it('passes an admitted participant’s join up with room, pin and display filled in, and reads its answer', async () => {
    const janus = await standInJanus();
    const { host, calls } = recordingHost(ADMITTED);
    const { bridge, send, seen } = await connect(janus.url, host, {
      ...ADMITTED,
      target: { ...ADMITTED.target, url: janus.url },
    });
    expect(bridge.stateName).toBe('admitted');
    send({ janus: 'create', transaction: 'c1', apisecret: 'guessed' });
    await until(() => seen.some((m) => m.transaction === 'c1'), 'the session is created');
    const join = { request: 'join', ptype: 'publisher', room: 1, pin: 'x', display: 'screen' };
    send({ janus: 'message', transaction: 'j1', session_id: 11, handle_id: 22, body: join });
    await until(() => calls.kicked.length === 1, 'the join is answered');
    expect(janus.received[0]).toEqual({ janus: 'create', transaction: 'c1', apisecret: 'api-secret' });
    expect(janus.received[1]?.body).toEqual({
      request: 'join',
      ptype: 'publisher',
      room: PLACED.room,
      pin: PLACED.pin,
      display: 'p1:screen',
    });
    // The feed Janus answered with is kept; any other under the same name is the one left behind.
    expect(calls.kicked).toEqual([['p1:screen', 77]]);
  });

  it('admits a prepared connection by the grant its publisher join carries, and refuses one that admits nobody', async () => {
    const janus = await standInJanus();
    const refused = recordingHost({ refused: 401 });
    const first = await connect(janus.url, refused.host, undefined);
    expect(first.bridge.stateName).toBe('prepared');
    const join = { janus: 'message', transaction: 'j1', session_id: 11, handle_id: 22 };
    first.send({ janus: 'create', transaction: 'c1' });
    await until(() => first.seen.some((m) => m.transaction === 'c1'), 'the session is created');
    first.send({ ...join, body: { request: 'join', ptype: 'publisher', grant: 'g-bad' } });
    await until(() => first.seen.some((m) => m.janus === 'error'), 'the join is refused');
    expect(first.seen.at(-1)).toMatchObject({ transaction: 'j1', error: { reason: 'not_admitted' } });
    expect(first.bridge.stateName).toBe('prepared');

    const admitting = recordingHost({ ...ADMITTED, target: { ...ADMITTED.target, url: janus.url } });
    const second = await connect(janus.url, admitting.host, undefined);
    second.send({ janus: 'create', transaction: 'c2' });
    await until(() => second.seen.some((m) => m.transaction === 'c2'), 'the session is created');
    second.send({ ...join, body: { request: 'join', ptype: 'publisher', grant: 'g-good' } });
    await until(() => admitting.calls.kicked.length === 1, 'the join is answered');
    expect(admitting.calls.admit).toEqual(['g-good']);
    expect(second.bridge.stateName).toBe('admitted');
    expect(second.bridge.participantId).toBe('p1');
    // The session it made while prepared is the participant's own now: it may be claimed back.
    expect(admitting.sessions.get('p1')).toEqual(new Set([11]));
    expect(janus.received.at(-1)?.body).not.toHaveProperty('grant');
  });

  it('tells the host of a claim; a goodbye ends the connection’s sessions but one it let go, and `end` ends them first', async () => {
    const janus = await standInJanus();
    const { host, calls } = recordingHost(ADMITTED);
    const admitted = { ...ADMITTED, target: { ...ADMITTED.target, url: janus.url } };
    const destroys = () => janus.received.filter((m) => m.janus === 'destroy').map((m) => m.session_id);
    const withSession = async () => {
      const connection = await connect(janus.url, host, admitted);
      connection.send({ janus: 'create', transaction: 'c' });
      await until(() => connection.seen.some((m) => m.transaction === 'c'), 'the session is created');
      return connection;
    };

    const returning = await withSession();
    returning.send({ janus: 'claim', transaction: 'back', session_id: 11 });
    await until(() => janus.received.some((m) => m.janus === 'claim'), 'the claim goes up');
    expect(janus.received.find((m) => m.janus === 'claim')).toMatchObject({ session_id: 11, apisecret: 'api-secret' });
    expect(calls.claimed).toEqual([['p1', 11, returning.bridge]]);

    const claimedFrom = await withSession();
    claimedFrom.bridge.letGo(11);
    claimedFrom.browser.close(1000);
    await until(() => janus.closed.count === 1, 'the claimed-from connection closes');
    expect(destroys()).toEqual([]);

    const saidGoodbye = await withSession();
    saidGoodbye.browser.close(1000);
    await until(() => janus.closed.count === 2, 'the connection that said goodbye closes');
    expect(destroys()).toEqual([11]);

    const removed = await withSession();
    removed.bridge.end(4003, 'removed');
    await until(() => janus.closed.count === 3, 'the removed connection closes');
    expect(destroys()).toEqual([11, 11]);
  });

  it('drops a message that arrives once it is closing: no grant is looked up for it', async () => {
    const janus = await standInJanus();
    const { host, calls } = recordingHost(ADMITTED);
    const { bridge, socket } = await connect(janus.url, host, undefined);
    bridge.close(4003, 'removed');
    expect(bridge.stateName).toBe('closing');
    // A frame the browser sent before it read the close frame still arrives.
    const join = { request: 'join', ptype: 'publisher', grant: 'g-late' };
    socket.emit(
      'message',
      Buffer.from(JSON.stringify({ janus: 'message', transaction: 'j', session_id: 1, handle_id: 2, body: join })),
    );
    await expect(bridge.admitByKey(ADMITTED)).resolves.toBeUndefined();
    expect(calls.admit).toEqual([]);
    expect(bridge.participantId).toBeUndefined();
    await until(() => bridge.stateName === 'closed', 'the browser socket closes');
    expect(calls.forget).toBe(1);
  });

  it('cleans up when the browser leaves while Janus is still connecting', async () => {
    const upstream = await silentUpstream();
    const { host, calls } = recordingHost(ADMITTED);
    const { bridge, browser } = await connect(upstream.url, host, undefined);
    await until(() => upstream.sockets.length === 1, 'the upstream connection is opened');
    const upstreamGone = once(upstream.sockets[0]!, 'close');
    browser.close(1000);
    await until(() => bridge.stateName === 'closed', 'the bridge closes');
    await upstreamGone;
    expect(calls.forget).toBeGreaterThanOrEqual(1);
    expect(calls.warnings).toEqual([]);
  });
});
