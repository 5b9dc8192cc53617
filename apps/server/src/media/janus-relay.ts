import type { Duplex } from 'node:stream';
import { janusError, janusRequest, JanusReplySchema } from '@meetcast/contracts';
import WebSocket from 'ws';
import type { FilterResult } from './janus-filter.js';
import { readJanus, withApiSecret } from './janus/protocol.js';

/** Answers a WebSocket upgrade we do not accept with a bare HTTP status. */
export function refuseUpgrade(socket: Duplex, status: number, text: string) {
  socket.write(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

export interface JanusRelay {
  readonly upstream: WebSocket;
  /** The Janus sessions created over this connection (or claimed back through it), until another claims one. */
  readonly sessions: Set<number>;
  /** To Janus now, or as soon as its connection is open. */
  send(text: string): void;
  /**
   * A message the proxy's filter judged: up to Janus, or its refusal back to the browser. A `create`
   * beyond `maxSessions` (created or on their way) is refused; its answer's session id is remembered.
   */
  forward(result: FilterResult, maxSessions: number): void;
  /** A plugin request going up: `onAnswer` gets the plugin's data of its final answer (once). */
  expectAnswer(transaction: string, onAnswer: (data: Record<string, unknown>) => void): void;
  /** A `create` or `attach` going up: `onCreated` gets the new session's or handle's id (once). */
  expectCreated(transaction: string, onCreated: (id: number) => void): void;
  /** Asks Janus to destroy this connection's sessions (sent before the connection is closed). */
  endSessions(apiSecret: string | undefined): void;
}

/**
 * The part both Janus proxies share (participants at /janus, viewers at /janus-watch): one upstream
 * WebSocket per browser connection, what the browser sends before it is open kept in order, every
 * answer passed on untouched, and the sessions this connection created remembered, since only those
 * may be addressed through it. What the browser may send is each proxy's own filter.
 */
export function relayJanusSocket(
  browser: WebSocket,
  upstreamUrl: string,
  onSession?: (id: number) => void,
): JanusRelay {
  const upstream = new WebSocket(upstreamUrl, 'janus-protocol');
  const queue: string[] = [];
  const sessions = new Set<number>();
  const pending = new Set<string>();
  const answers = new Map<string, (data: Record<string, unknown>) => void>();
  const creations = new Map<string, (id: number) => void>();
  upstream.on('open', () => {
    for (const text of queue.splice(0)) upstream.send(text);
  });
  upstream.on('message', (raw) => {
    const text = String(raw);
    // Pass it on first: what we read of it below must not delay the browser.
    if (browser.readyState === WebSocket.OPEN) browser.send(text);
    if (pending.size === 0 && answers.size === 0 && creations.size === 0) return;
    const reply = readJanus(text, JanusReplySchema);
    if (reply?.janus === 'success' && reply.data) {
      const { transaction, data } = reply;
      if (pending.delete(transaction)) {
        sessions.add(data.id);
        onSession?.(data.id);
      }
      const onCreated = creations.get(transaction);
      creations.delete(transaction);
      onCreated?.(data.id);
      return;
    }
    // The final answer to a plugin request (Janus acknowledges it first, then answers).
    if ((reply?.janus === 'event' || reply?.janus === 'error') && reply.transaction !== undefined) {
      const onAnswer = answers.get(reply.transaction);
      answers.delete(reply.transaction);
      onAnswer?.((reply.janus === 'event' && reply.plugindata?.data) || {});
    }
  });
  upstream.on('error', () => undefined);
  return {
    upstream,
    sessions,
    send(text) {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else queue.push(text);
    },
    forward(result, maxSessions) {
      if (result.kind === 'reject') return browser.send(janusError(result.transaction, result.reason));
      const message = result.message;
      if (message.janus === 'create') {
        if (sessions.size + pending.size >= maxSessions) {
          return browser.send(janusError(String(message.transaction), 'too_many_sessions'));
        }
        pending.add(String(message.transaction));
      }
      if (message.janus === 'claim') sessions.add(Number(message.session_id));
      this.send(JSON.stringify(message));
    },
    expectAnswer(transaction, onAnswer) {
      answers.set(transaction, onAnswer);
    },
    expectCreated(transaction, onCreated) {
      creations.set(transaction, onCreated);
    },
    endSessions(apiSecret) {
      if (upstream.readyState !== WebSocket.OPEN) return;
      for (const id of sessions) {
        upstream.send(
          JSON.stringify(withApiSecret({ ...janusRequest.destroy(id), transaction: `end-${id}` }, apiSecret)),
        );
      }
    },
  };
}
