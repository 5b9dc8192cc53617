import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import type { AppConfig } from '../env.js';
import { clientAddress } from '../http/client-address.js';
import { JanusBridge, type Admitted, type BridgeHost, type BridgeOrigin } from './janus/bridge.js';
import type { JanusTarget, MediaService, PlacedRoom } from './media-service.js';
import { refuseUpgrade } from './janus-relay.js';
import { JustAdmitted } from './just-admitted.js';

/** What the proxy needs to know of an admitted participant and their meeting. */
export interface MediaAdmission {
  participant: { id: string; state: string };
  meeting: { id: number; name: string; state: string };
}

/** A meeting as a pre-join screen's connection asks for it: live, and where its room is placed. */
export interface PreparableMeeting {
  id: number;
  state: string;
  janusServer: string | null;
  janusRoomId: number | null;
}

/** Open /janus connections one grant may hold at once (a reload overlaps its old connection). */
const MAX_CONNECTIONS_PER_GRANT = 2;
/** Pre-join connections without a grant yet, per client address (a household's tabs) and in all. */
const MAX_PREPARED_PER_ADDRESS = 8;
const MAX_PREPARED = 2000;
/** What a pre-join connection's `key` may be: the page's own random name for it, which its join-room.php call repeats. */
const JOIN_KEY = /^[A-Za-z0-9_-]{20,100}$/;
/** join-room.php waits this long at most for Janus to answer the click's early join (it takes ~1 ms). */
const JOIN_ANSWER_WAIT_MS = 150;

export const JANUS_PROXY_PATH = '/janus';

/** What join-room.php knows when it admits someone at once: who, to which meeting, and where its room is. */
export interface AdmissionAnswered {
  participantId: string;
  meetingId: number;
  placed: PlacedRoom;
}

/** A join the page named its pre-join connection in (the `x-meetcast-join-key` header), and from where. */
export interface JoinLink {
  key: string;
  address: string;
}

/**
 * Browsers reach Janus only through here (docs/decisions/003-browsers-reach-janus.md): a
 * WebSocket on our own origin at /janus?grant=..., accepted only for an admitted participant with
 * a current grant, bridged to the Janus instance hosting that meeting. Every message is filtered
 * (janus-filter.ts): the room, its pin and the API secret are added by us, management requests are
 * refused. A pre-join screen may open /janus?meeting={meetId} of a live meeting before there is a
 * grant (ADR 016): it may create a session and attach handles, nothing else, until its publisher
 * join carries the grant that admits it; such connections are bounded per address and in time.
 */
export class JanusProxy {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: 512 * 1024,
    handleProtocols: (protocols) => (protocols.has('janus-protocol') ? 'janus-protocol' : false),
  });
  private readonly bridges = new Set<JanusBridge>();
  /** Janus sessions each participant created: only those may be claimed back after a drop. */
  private readonly sessionsByParticipant = new Map<string, Set<number>>();
  /** Grants join-room.php admitted in this process moments ago, each taken by its first connection. */
  private readonly justAdmitted = new JustAdmitted<Admitted>();
  /** What each bridge asks of the proxy; admitting a grant stays the one call `admit`. */
  private readonly bridgeHost: BridgeHost = {
    admit: (grant) => this.admit(grant),
    sessionsOf: (participantId) => {
      const own = this.sessionsByParticipant.get(participantId) ?? new Set<number>();
      this.sessionsByParticipant.set(participantId, own);
      return own;
    },
    replaceStale: (participantId, keep) => this.replaceStale(participantId, keep),
    claimed: (participantId, sessionId, by) => {
      for (const bridge of this.bridges) {
        if (bridge !== by && bridge.participantId === participantId) bridge.letGo(sessionId);
      }
    },
    kickFeed: (placed, display, keepId) => void this.media.kickFeed(placed, display, keepId),
    forget: (bridge) => this.bridges.delete(bridge),
    warn: (error) => this.context.log.warn({ err: error }, 'media: proxy message failed'),
  };

  constructor(
    private readonly context: { log: FastifyBaseLogger; config: Pick<AppConfig, 'trustProxy'> },
    private readonly media: MediaService,
    /** Who a join grant admits; rooms own grants, so they hand this in (media sits below rooms). */
    private readonly findAdmission: (grant: string | null) => Promise<MediaAdmission | undefined>,
    /** A meeting by its public id, for a pre-join screen's connection. */
    private readonly findMeeting: (meetId: string) => Promise<PreparableMeeting | undefined>,
  ) {}

  attach(app: FastifyInstance) {
    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== JANUS_PROXY_PATH) return;
      const grant = url.searchParams.get('grant');
      const meetId = url.searchParams.get('meeting');
      const upgrading =
        grant === null && meetId !== null
          ? this.upgradePrepared(request, socket, head, meetId, url.searchParams.get('key'))
          : this.upgrade(request, socket, head, grant);
      upgrading.catch((error: unknown) => {
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

  /**
   * join-room.php admitted this grant and placed its room: the connection that joins with it next
   * is admitted from memory, without the lookups that otherwise sit between the click and Janus'
   * answer (ADR 016). Taken once, forgotten after a minute or when the person is dropped; any other
   * connection, or one reaching another server process, is checked against the database as before.
   */
  async expectJoin(grant: string, answered: AdmissionAnswered, link?: JoinLink) {
    const target = await this.media.target(answered.placed.server);
    const named =
      link && [...this.bridges].find((bridge) => bridge.origin.joinKey === link.key && !bridge.participantId);
    if (
      target &&
      named?.origin.meetingId === answered.meetingId &&
      named.origin.address === link?.address &&
      named.targetUrl === target.url
    ) {
      // The answer to the click's join reaches the page before join-room.php's does: the page's
      // work on the HTTP answer (rendering the call) then no longer delays reading it (ADR 016).
      const joined = named.admitByKey({ ...answered, target });
      await Promise.race([joined, new Promise((resolve) => setTimeout(resolve, JOIN_ANSWER_WAIT_MS))]);
      return;
    }
    if (target) this.justAdmitted.remember(grant, { ...answered, target });
  }

  /**
   * Drops every media connection of a participant (removed, their reconnect grace over, or the
   * meeting ended), ending their Janus sessions: Janus would keep them to be claimed back otherwise.
   */
  disconnect(filter: { participantId?: string; meetingId?: number }) {
    const matches = (held: { participantId?: string; meetingId: number }) =>
      (!filter.participantId || held.participantId === filter.participantId) &&
      (!filter.meetingId || held.meetingId === filter.meetingId);
    this.justAdmitted.forget(matches);
    for (const bridge of this.bridges) {
      if (matches({ participantId: bridge.participantId, meetingId: bridge.origin.meetingId })) {
        bridge.end(4003, 'removed');
      }
    }
  }

  /** The grant's participant and the placed room, or why the grant does not open it. */
  private async admit(grant: string | null): Promise<Admitted | { refused: 401 | 503 }> {
    const remembered = this.justAdmitted.take(grant);
    if (remembered) return remembered;
    const found = await this.findAdmission(grant);
    if (!found || found.participant.state !== 'admitted' || found.meeting.state === 'ended') return { refused: 401 };
    const placed = await this.media.ensureRoom(found.meeting);
    const target = await this.media.target(placed.server);
    if (!target) return { refused: 503 };
    return { participantId: found.participant.id, meetingId: found.meeting.id, placed, target };
  }

  /** One grant is one participant's tab: a reload's new connection replaces the oldest ones. */
  private replaceStale(participantId: string, keep?: JanusBridge) {
    const open = [...this.bridges].filter((bridge) => bridge.participantId === participantId && bridge !== keep);
    for (const stale of open.slice(0, Math.max(0, open.length - MAX_CONNECTIONS_PER_GRANT + 1))) {
      stale.close(4009, 'replaced');
    }
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, grant: string | null) {
    const admitted = await this.admit(grant);
    if ('refused' in admitted) {
      refuseUpgrade(socket, admitted.refused, admitted.refused === 401 ? 'Unauthorized' : 'Service Unavailable');
      return;
    }
    this.replaceStale(admitted.participantId);
    const address = clientAddress(request, this.context.config.trustProxy);
    this.server.handleUpgrade(request, socket, head, (browser) => {
      this.bridge(browser, admitted.target, { meetingId: admitted.meetingId, address, joinKey: undefined }, admitted);
    });
  }

  private async upgradePrepared(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    meetId: string,
    key: string | null,
  ) {
    const address = clientAddress(request, this.context.config.trustProxy);
    const joinKey = key !== null && JOIN_KEY.test(key) ? key : undefined;
    const waiting = [...this.bridges].filter((bridge) => bridge.participantId === undefined);
    if (
      waiting.length >= MAX_PREPARED ||
      waiting.filter((bridge) => bridge.origin.address === address).length >= MAX_PREPARED_PER_ADDRESS
    ) {
      refuseUpgrade(socket, 429, 'Too Many Requests');
      return;
    }
    const meeting = meetId.length <= 100 ? await this.findMeeting(meetId) : undefined;
    // Only a room already placed is prepared for: the first person in has nobody to wait for.
    if (!meeting || meeting.state !== 'live' || !meeting.janusServer || !meeting.janusRoomId) {
      refuseUpgrade(socket, 404, 'Not Found');
      return;
    }
    const target = await this.media.target(meeting.janusServer);
    if (!target) {
      refuseUpgrade(socket, 503, 'Service Unavailable');
      return;
    }
    this.server.handleUpgrade(request, socket, head, (browser) => {
      this.bridge(browser, target, { meetingId: meeting.id, address, joinKey }, undefined);
    });
  }

  private bridge(browser: WebSocket, target: JanusTarget, origin: BridgeOrigin, admitted: Admitted | undefined) {
    this.bridges.add(new JanusBridge(browser, target, origin, admitted, this.bridgeHost));
  }
}
