import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import WebSocket, { WebSocketServer } from 'ws';
import type { AppContext } from '../context.js';
import { filterClientMessage, janusError } from './janus-filter.js';
import type { MediaService, PlacedRoom } from './media-service.js';
import { refuseUpgrade, relayJanusSocket } from './janus-relay.js';

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

interface Bridge {
  participantId: string;
  meetingId: number;
  close(code: number, reason: string): void;
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
        refuseUpgrade(socket, 503, 'Service Unavailable');
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
      refuseUpgrade(socket, 401, 'Unauthorized');
      return;
    }
    const placed = await this.media.ensureRoom(found.meeting);
    const target = await this.media.target(placed.server);
    if (!target) {
      refuseUpgrade(socket, 503, 'Service Unavailable');
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
    const ownSessions = this.sessionsByParticipant.get(room.participantId) ?? new Set<number>();
    this.sessionsByParticipant.set(room.participantId, ownSessions);
    const relay = relayJanusSocket(browser, upstreamUrl, (id) => ownSessions.add(id));
    const bridge: Bridge = {
      participantId: room.participantId,
      meetingId: room.meetingId,
      close: (code, reason) => {
        if (browser.readyState === WebSocket.OPEN) browser.close(code, reason);
        else browser.terminate();
        relay.upstream.terminate();
      },
    };
    this.bridges.add(bridge);

    browser.on('message', (raw) => {
      const text = String(raw);
      const claimable = new Set([...relay.sessions, ...ownSessions]);
      const result = filterClientMessage(text, { ...room, sessions: claimable });
      if (result.kind === 'reject') {
        browser.send(janusError(result.transaction, result.reason));
        return;
      }
      const message = result.message;
      if (message.janus === 'create') {
        if (relay.sessions.size + relay.pendingCreates >= MAX_SESSIONS_PER_CONNECTION) {
          browser.send(janusError(String(message.transaction), 'too_many_sessions'));
          return;
        }
        relay.expectSession(String(message.transaction));
      }
      if (message.janus === 'claim') relay.sessions.add(Number(message.session_id));
      if (result.publishes) {
        // A participant coming back replaces the feed it left behind instead of doubling it. The
        // join goes up at once (asking Janus first cost every join a round trip); once Janus has
        // given the new feed its id, any other feed under the same name is the one left behind.
        const display = `${room.participantId}:${result.publishes}`;
        relay.expectAnswer(String(message.transaction), (answer) => {
          if (answer.videoroom === 'joined' && typeof answer.id === 'number') {
            void this.media.kickFeed(room.placed, display, answer.id);
          }
        });
      }
      relay.send(JSON.stringify(message));
    });
    const finish = () => {
      this.bridges.delete(bridge);
      bridge.close(1000, 'closed');
    };
    browser.on('close', finish);
    browser.on('error', finish);
    relay.upstream.on('close', () => {
      this.bridges.delete(bridge);
      if (browser.readyState === WebSocket.OPEN) browser.close(1011, 'media server gone');
    });
  }
}
