import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import WebSocket, { WebSocketServer } from 'ws';
import { feedDisplay } from '@meetcast/contracts';
import type { AppConfig } from '../env.js';
import { clientAddress } from '../http/client-address.js';
import {
  filterBeforeAdmission,
  filterClientMessage,
  janusAck,
  janusError,
  publisherJoinOf,
  subscriberJoinFor,
} from './janus-filter.js';
import type { JanusTarget, MediaService, PlacedRoom } from './media-service.js';
import { refuseUpgrade, relayJanusSocket } from './janus-relay.js';
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

/** A page opens one Janus session (janus.js); a second allows a reconnect before the first is gone. */
const MAX_SESSIONS_PER_CONNECTION = 2;
/** Open /janus connections one grant may hold at once (a reload overlaps its old connection). */
const MAX_CONNECTIONS_PER_GRANT = 2;
/** Pre-join connections without a grant yet, per client address (a household's tabs) and in all. */
const MAX_PREPARED_PER_ADDRESS = 8;
const MAX_PREPARED = 2000;
/** A pre-join connection that has not joined by then is closed; the click then opens its own. */
const PREPARED_MS = 10 * 60_000;
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

interface Admitted extends AdmissionAnswered {
  target: JanusTarget;
}

interface Bridge {
  meetingId: number;
  /** Unset while a pre-join screen's connection waits for the grant its publisher join carries. */
  participantId: string | undefined;
  address: string;
  targetUrl: string;
  /** A pre-join connection's key: the join-room.php call that names it admits it at once (ADR 016). */
  joinKey: string | undefined;
  /** Resolves once the join the click sent early has gone up and Janus' answer on to the browser. */
  admitByKey(admitted: Admitted): Promise<void>;
  close(code: number, reason: string): void;
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
  private readonly bridges = new Set<Bridge>();
  /** Janus sessions each participant created: only those may be claimed back after a drop. */
  private readonly sessionsByParticipant = new Map<string, Set<number>>();
  /** Grants join-room.php admitted in this process moments ago, each taken by its first connection. */
  private readonly justAdmitted = new JustAdmitted<Admitted>();

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
    const named = link && [...this.bridges].find((bridge) => bridge.joinKey === link.key && !bridge.participantId);
    if (
      target &&
      named?.meetingId === answered.meetingId &&
      named.address === link?.address &&
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

  /** Drops every media connection of a participant (removed, or the meeting ended). */
  disconnect(filter: { participantId?: string; meetingId?: number }) {
    const matches = (held: { participantId?: string; meetingId: number }) =>
      (!filter.participantId || held.participantId === filter.participantId) &&
      (!filter.meetingId || held.meetingId === filter.meetingId);
    this.justAdmitted.forget(matches);
    for (const bridge of this.bridges) if (matches(bridge)) bridge.close(4003, 'removed');
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
  private replaceStale(participantId: string, keep?: Bridge) {
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
      waiting.filter((bridge) => bridge.address === address).length >= MAX_PREPARED_PER_ADDRESS
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

  private bridge(
    browser: WebSocket,
    target: JanusTarget,
    where: { meetingId: number; address: string; joinKey: string | undefined },
    admittedAtUpgrade: Admitted | undefined,
  ) {
    let admitted = admittedAtUpgrade;
    const ownSessions = () => {
      if (!admitted) return undefined;
      const own = this.sessionsByParticipant.get(admitted.participantId) ?? new Set<number>();
      this.sessionsByParticipant.set(admitted.participantId, own);
      return own;
    };
    const relay = relayJanusSocket(browser, target.url, (id) => ownSessions()?.add(id));
    const isPrepared = !admitted;
    /** A pre-join connection's publisher join, sent by the click before its grant exists (ADR 016). */
    let parkedJoin: string | undefined;
    /** The handle whose publisher join went up first: the page repeats it with the grant, and is told it went. */
    let joinedHandle: number | undefined;
    /** join-room.php admitted this connection before its early join arrived: told when that join is answered. */
    let onEarlyJoinAnswered: (() => void) | undefined;
    const bridge: Bridge = {
      ...where,
      participantId: admitted?.participantId,
      targetUrl: target.url,
      admitByKey: (found) =>
        new Promise<void>((joinAnswered) => {
          turn = turn
            .then(async () => {
              if (admitted || !this.bridges.has(bridge)) return joinAnswered();
              becomeAdmitted(found);
              const parked = parkedJoin;
              parkedJoin = undefined;
              // The click's join may reach us after its join-room.php call: the answer then waits for it.
              if (parked) await receive(parked, joinAnswered);
              else onEarlyJoinAnswered = joinAnswered;
            })
            .catch((error: unknown) => {
              joinAnswered();
              onFailure(error);
            });
        }),
      close: (code, reason) => {
        clearTimeout(unadmittedTimer);
        if (browser.readyState === WebSocket.OPEN) browser.close(code, reason);
        else browser.terminate();
        if (relay.upstream.readyState === WebSocket.OPEN) relay.upstream.close();
        else relay.upstream.terminate();
      },
    };
    const unadmittedTimer = admitted ? undefined : setTimeout(() => bridge.close(4008, 'not joined'), PREPARED_MS);
    this.bridges.add(bridge);

    const becomeAdmitted = (found: Admitted) => {
      admitted = found;
      bridge.participantId = found.participantId;
      clearTimeout(unadmittedTimer);
      this.replaceStale(found.participantId, bridge);
      for (const id of relay.sessions) ownSessions()?.add(id);
    };

    /** The publisher join of a pre-join connection carries its grant: admit it, or refuse the join. */
    const admitPrepared = async (grant: string, transaction: string) => {
      const found = await this.admit(grant);
      if ('refused' in found || found.meetingId !== where.meetingId || found.target.url !== target.url) {
        browser.send(janusError(transaction, 'not_admitted'));
        return false;
      }
      becomeAdmitted(found);
      parkedJoin = undefined;
      return true;
    };

    /** `onJoinAnswered`: told once Janus' answer to this publisher join has been passed on (or it went nowhere). */
    const receive = async (text: string, onAnswered?: () => void) => {
      const join = isPrepared ? publisherJoinOf(text) : undefined;
      let onJoinAnswered = onAnswered ?? (() => undefined);
      if (join && !onAnswered && onEarlyJoinAnswered) {
        onJoinAnswered = onEarlyJoinAnswered;
        onEarlyJoinAnswered = undefined;
      }
      if (!admitted) {
        if (join?.grant === undefined) {
          // A join without a grant waits for the join-room.php call that names this connection's key.
          if (join && where.joinKey) parkedJoin = text;
          else {
            const filter = { apiSecret: target.apiSecret, sessions: relay.sessions };
            relay.forward(filterBeforeAdmission(text, filter), MAX_SESSIONS_PER_CONNECTION);
          }
          return;
        }
        if (!(await admitPrepared(join.grant, join.transaction))) return;
      }
      if (join) {
        if (join.handleId === joinedHandle && join.grant) {
          browser.send(janusAck(join));
          return;
        }
        joinedHandle ??= join.handleId;
      }
      const current = admitted!;
      const filterContext = {
        participantId: current.participantId,
        room: current.placed.room,
        pin: current.placed.pin,
        apiSecret: target.apiSecret,
        sessions: new Set([...relay.sessions, ...(ownSessions() ?? [])]),
      };
      const result = filterClientMessage(text, filterContext);
      if (result.kind === 'forward' && result.publishes) {
        const { session_id: sessionId, transaction } = result.message as { session_id: number; transaction: string };
        const { publishes, subscribeWith } = result;
        relay.expectAnswer(transaction, (answer) => {
          if (answer.videoroom === 'joined' && typeof answer.id === 'number') {
            // The others' pictures are what the joiner waits for: their subscription goes up now,
            // not after our answer has crossed to the page and its request has come back (ADR 016).
            const subscribe =
              subscribeWith &&
              subscriberJoinFor(
                { sessionId, handleId: subscribeWith, transaction },
                answer.publishers,
                current.participantId,
              );
            if (subscribe) {
              // join-room.php answers once the offer is on its way too: the page, idle until then, answers it first.
              relay.expectAnswer(subscribe.transaction, () => onJoinAnswered());
              relay.forward(filterClientMessage(subscribe.text, filterContext), MAX_SESSIONS_PER_CONNECTION);
            }
            // A participant coming back replaces the feed it left behind instead of doubling it. The
            // join went up at once (asking Janus first cost every join a round trip); now that Janus
            // has given the new feed its id, any other feed under the same name is the one left behind.
            void this.media.kickFeed(current.placed, feedDisplay(current.participantId, publishes), answer.id);
            if (subscribe) return;
          }
          onJoinAnswered();
        });
      } else {
        onJoinAnswered();
      }
      relay.forward(result, MAX_SESSIONS_PER_CONNECTION);
    };
    // In order: a message sent while a pre-join connection is being admitted waits for it.
    let turn = Promise.resolve();
    const onFailure = (error: unknown) => {
      this.context.log.warn({ err: error }, 'media: proxy message failed');
      bridge.close(1011, 'proxy error');
    };
    browser.on('message', (raw) => {
      const text = String(raw);
      turn = turn.then(() => receive(text)).catch(onFailure);
    });
    const finish = () => {
      this.bridges.delete(bridge);
      bridge.close(1000, 'closed');
    };
    browser.on('close', (code) => {
      // A page that said goodbye (a close frame: not 1006) ends its sessions (the upstream is closed, not
      // cut, so they reach Janus): others' feeds of it stop at once. A drop keeps them to claim back.
      if (code !== 1006) relay.endSessions(target.apiSecret);
      finish();
    });
    browser.on('error', finish);
    relay.upstream.on('close', () => {
      this.bridges.delete(bridge);
      clearTimeout(unadmittedTimer);
      if (browser.readyState === WebSocket.OPEN) browser.close(1011, 'media server gone');
    });
  }
}
