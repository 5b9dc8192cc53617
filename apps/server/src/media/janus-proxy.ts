import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import WebSocket, { WebSocketServer } from 'ws';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { filterClientMessage, janusError } from './janus-filter.js';
import type { MediaService, PlacedRoom } from './media-service.js';

/** What the proxy needs to know of an admitted participant and their meeting. */
export interface MediaAdmission {
  participant: { id: string; state: string };
  meeting: { id: number; name: string; state: string };
}

/** A page opens one Janus session (janus.js); a second allows a reconnect before the first is gone. */
const MAX_SESSIONS_PER_CONNECTION = 2;
/** Open /janus connections one grant may hold at once (a reload overlaps its old connection). */
const MAX_CONNECTIONS_PER_GRANT = 2;

export const JANUS_PROXY_PATH = '/janus';
const CreatedSessionSchema = z.object({
  janus: z.literal('success'),
  transaction: z.string(),
  data: z.object({ id: z.number() }),
});

interface Bridge {
  participantId: string;
  meetingId: number;
  close(code: number, reason: string): void;
}

function refuse(socket: Duplex, status: number, text: string) {
  socket.write(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/**
 * Browsers reach Janus only through here (docs/decisions/003-browsers-reach-janus.md): a
 * WebSocket on our own origin at /janus?grant=..., accepted only for an admitted participant with
 * a current grant, bridged to the Janus instance hosting that meeting. Every message is filtered
 * (janus-filter.ts): the room, its pin and the API secret are added by us, management requests are
 * refused.
 */
export class JanusProxy {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: 512 * 1024,
    handleProtocols: (protocols) => (protocols.has('janus-protocol') ? 'janus-protocol' : false),
  });
  private readonly bridges = new Set<Bridge>();
  /** Janus sessions each participant created: only those may be claimed back after a drop. */
  private readonly sessionsByParticipant = new Map<string, Set<number>>();

  constructor(
    private readonly context: AppContext,
    private readonly media: MediaService,
    /** Who a join grant admits; rooms own grants, so they hand this in (media sits below rooms). */
    private readonly findAdmission: (grant: string | null) => Promise<MediaAdmission | undefined>,
  ) {}

  attach(app: FastifyInstance) {
    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== JANUS_PROXY_PATH) return;
      this.upgrade(request, socket, head, url.searchParams.get('grant')).catch((error: unknown) => {
        this.context.log.warn({ err: error }, 'media: proxy upgrade failed');
        refuse(socket, 503, 'Service Unavailable');
      });
    };
    app.server.on('upgrade', onUpgrade);
    app.addHook('preClose', async () => {
      app.server.off('upgrade', onUpgrade);
      for (const bridge of this.bridges) bridge.close(1001, 'server closing');
      this.server.close();
    });
  }

  /** Drops every media connection of a participant (removed, or the meeting ended). */
  disconnect(filter: { participantId?: string; meetingId?: number }) {
    for (const bridge of this.bridges) {
      if (filter.participantId && bridge.participantId !== filter.participantId) continue;
      if (filter.meetingId && bridge.meetingId !== filter.meetingId) continue;
      bridge.close(4003, 'removed');
    }
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, grant: string | null) {
    const found = await this.findAdmission(grant);
    if (!found || found.participant.state !== 'admitted' || found.meeting.state === 'ended') {
      refuse(socket, 401, 'Unauthorized');
      return;
    }
    const placed = await this.media.ensureRoom(found.meeting);
    const target = await this.media.target(placed.server);
    if (!target) {
      refuse(socket, 503, 'Service Unavailable');
      return;
    }
    // One grant is one participant's tab: a reload's new connection replaces the oldest ones rather
    // than adding to them, so a grant can never hold more than a few Janus sessions.
    const open = [...this.bridges].filter((bridge) => bridge.participantId === found.participant.id);
    for (const stale of open.slice(0, Math.max(0, open.length - MAX_CONNECTIONS_PER_GRANT + 1))) {
      stale.close(4009, 'replaced');
    }
    this.server.handleUpgrade(request, socket, head, (browser) => {
      this.bridge(browser, target.url, {
        participantId: found.participant.id,
        meetingId: found.meeting.id,
        placed,
        room: placed.room,
        pin: placed.pin,
        apiSecret: target.apiSecret,
      });
    });
  }

  private bridge(
    browser: WebSocket,
    upstreamUrl: string,
    room: {
      participantId: string;
      meetingId: number;
      placed: PlacedRoom;
      room: number;
      pin: string;
      apiSecret: string | undefined;
    },
  ) {
    const upstream = new WebSocket(upstreamUrl, 'janus-protocol');
    const queue: string[] = [];
    const ownSessions = this.sessionsByParticipant.get(room.participantId) ?? new Set<number>();
    this.sessionsByParticipant.set(room.participantId, ownSessions);
    const sessions = new Set<number>();
    const pendingCreates = new Set<string>();
    const bridge: Bridge = {
      participantId: room.participantId,
      meetingId: room.meetingId,
      close: (code, reason) => {
        if (browser.readyState === WebSocket.OPEN) browser.close(code, reason);
        else browser.terminate();
        upstream.terminate();
      },
    };
    this.bridges.add(bridge);

    const send = (text: string) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else queue.push(text);
    };
    upstream.on('open', () => {
      for (const text of queue.splice(0)) upstream.send(text);
    });
    upstream.on('message', (raw) => {
      const text = String(raw);
      if (pendingCreates.size > 0) {
        try {
          const created = CreatedSessionSchema.safeParse(JSON.parse(text));
          if (created.success && pendingCreates.delete(created.data.transaction)) {
            sessions.add(created.data.data.id);
            ownSessions.add(created.data.data.id);
          }
        } catch {
          // Janus only sends JSON; anything else is passed on untouched.
        }
      }
      if (browser.readyState === WebSocket.OPEN) browser.send(text);
    });
    browser.on('message', (raw) => {
      const text = String(raw);
      const claimable = new Set([...sessions, ...ownSessions]);
      const result = filterClientMessage(text, { ...room, sessions: claimable });
      if (result.kind === 'reject') {
        browser.send(janusError(result.transaction, result.reason));
        return;
      }
      const message = result.message;
      if (message.janus === 'create') {
        if (sessions.size + pendingCreates.size >= MAX_SESSIONS_PER_CONNECTION) {
          browser.send(janusError(String(message.transaction), 'too_many_sessions'));
          return;
        }
        pendingCreates.add(String(message.transaction));
      }
      if (message.janus === 'claim') sessions.add(Number(message.session_id));
      if (result.publishes) {
        // A participant coming back replaces the feed it left behind instead of doubling it.
        this.media
          .kickFeed(room.placed, `${room.participantId}:${result.publishes}`)
          .finally(() => send(JSON.stringify(message)));
        return;
      }
      send(JSON.stringify(message));
    });
    const finish = () => {
      this.bridges.delete(bridge);
      bridge.close(1000, 'closed');
    };
    browser.on('close', finish);
    browser.on('error', finish);
    upstream.on('close', () => {
      this.bridges.delete(bridge);
      if (browser.readyState === WebSocket.OPEN) browser.close(1011, 'media server gone');
    });
    upstream.on('error', () => undefined);
  }
}
