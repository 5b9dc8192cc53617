import { feedDisplay, janusAck, janusError, VideoRoomJoinedSchema, type FeedKind } from '@meetcast/contracts';
import WebSocket from 'ws';
import {
  filterBeforeAdmission,
  filterClientMessage,
  readClientMessage,
  subscriberJoinFor,
  type ClientMessage,
  type FilterContext,
  type Refusal,
} from '../janus-filter.js';
import { relayJanusSocket, type JanusRelay } from '../janus-relay.js';
import type { JanusTarget, PlacedRoom } from '../media-service.js';

/** A page opens one Janus session (janus.js); a second allows a reconnect before the first is gone. */
const MAX_SESSIONS_PER_CONNECTION = 2;
/** A pre-join connection that has not joined by then is closed; the click then opens its own. */
const PREPARED_MS = 10 * 60_000;

/** An admitted participant of a meeting whose room is placed, and the Janus instance holding it. */
export interface Admitted {
  participantId: string;
  meetingId: number;
  placed: PlacedRoom;
  target: JanusTarget;
}

/** Where a bridge's browser connection comes from. */
export interface BridgeOrigin {
  meetingId: number;
  address: string;
  /** A pre-join connection's key: the join-room.php call that names it admits it at once (ADR 016). */
  joinKey: string | undefined;
}

/** What a bridge asks of the proxy that holds it. */
export interface BridgeHost {
  /** The grant's participant and placed room, or why the grant does not open it. */
  admit(grant: string): Promise<Admitted | { refused: 401 | 503 }>;
  /** The Janus sessions a participant created over any connection: only those may be claimed back. */
  sessionsOf(participantId: string): Set<number>;
  /** One grant is one tab: the participant's older connections give way to this one. */
  replaceStale(participantId: string, keep: JanusBridge): void;
  /** This bridge claims one of the participant's sessions back: their other bridges let it go. */
  claimed(participantId: string, sessionId: number, by: JanusBridge): void;
  /** A participant coming back: any feed under `display` but `keepId` is the one left behind. */
  kickFeed(placed: PlacedRoom, display: string, keepId: number): void;
  /** The bridge is closed for good: the proxy forgets it. */
  forget(bridge: JanusBridge): void;
  warn(error: unknown): void;
}

/**
 * prepared → admitted → closing → closed, or admitted from the start. A pre-join connection may only
 * prepare sessions and handles; closing is asked and waits for the browser's socket to close, and
 * what it still sends by then is dropped.
 */
type BridgeState =
  | {
      name: 'prepared';
      /** The click's publisher join, sent before its grant exists: it waits for join-room.php (ADR 016). */
      parkedJoin: ClientMessage | undefined;
      timer: NodeJS.Timeout;
    }
  | {
      name: 'admitted';
      admitted: Admitted;
      /** The handle whose publisher join went up first: the page repeats it with the grant, and is told it went. */
      joinedHandle: number | undefined;
      /** join-room.php admitted this connection before its early join arrived: told when that join is answered. */
      onEarlyJoinAnswered: (() => void) | undefined;
    }
  | { name: 'closing'; participantId: string | undefined }
  | { name: 'closed' };
type AdmittedState = Extract<BridgeState, { name: 'admitted' }>;

/**
 * One browser's /janus connection bridged to the Janus instance of its meeting's room: every message
 * read once, filtered (janus-filter.ts) and passed up in order; Janus' answers passed down as they come.
 */
export class JanusBridge {
  private state: BridgeState;
  private readonly relay: JanusRelay;
  /** Started before a grant (a pre-join screen's connection): its publisher joins are watched for grants. */
  private readonly startedPrepared: boolean;
  /** In order: a message sent while a pre-join connection is being admitted waits for it. */
  private turn = Promise.resolve();

  constructor(
    private readonly browser: WebSocket,
    private readonly target: JanusTarget,
    readonly origin: BridgeOrigin,
    admitted: Admitted | undefined,
    private readonly host: BridgeHost,
  ) {
    this.relay = relayJanusSocket(browser, target.url, (id) => this.onSession(id));
    this.startedPrepared = !admitted;
    this.state = admitted
      ? { name: 'admitted', admitted, joinedHandle: undefined, onEarlyJoinAnswered: undefined }
      : {
          name: 'prepared',
          parkedJoin: undefined,
          timer: setTimeout(() => this.close(4008, 'not joined'), PREPARED_MS),
        };
    browser.on('message', (raw) => {
      if (!this.isOpen) return;
      const read = readClientMessage(String(raw));
      this.inTurn(() => this.receive(read));
    });
    browser.on('close', (code) => {
      // A page that said goodbye (a close frame: not 1006) ends its sessions (the upstream is closed, not
      // cut, so they reach Janus): others' feeds of it stop at once. A drop keeps them to claim back,
      // and a session another connection of theirs claimed meanwhile is no longer this one's (letGo).
      if (code !== 1006) this.relay.endSessions(target.apiSecret);
      this.finish();
    });
    browser.on('error', () => this.finish());
    this.relay.upstream.on('close', () => {
      this.enterClosed();
      if (browser.readyState === WebSocket.OPEN) browser.close(1011, 'media server gone');
    });
  }

  /** The admitted participant; none while a pre-join connection waits for its grant, or once closed. */
  get participantId() {
    if (this.state.name === 'admitted') return this.state.admitted.participantId;
    return this.state.name === 'closing' ? this.state.participantId : undefined;
  }

  get targetUrl() {
    return this.target.url;
  }

  get stateName() {
    return this.state.name;
  }

  private get isOpen() {
    return this.state.name === 'prepared' || this.state.name === 'admitted';
  }

  /**
   * join-room.php admitted this pre-join connection by its key. Resolves once the join the click sent
   * early has gone up and Janus' answer on to the browser (or at once, when there is nothing to admit).
   */
  admitByKey(found: Admitted) {
    return new Promise<void>((joinAnswered) => {
      this.inTurn(async () => {
        if (this.state.name !== 'prepared') return joinAnswered();
        const parked = this.state.parkedJoin;
        const admitted = this.becomeAdmitted(found);
        // The click's join may reach us after its join-room.php call: the answer then waits for it.
        if (parked) await this.receive(parked, joinAnswered);
        else admitted.onEarlyJoinAnswered = joinAnswered;
      }, joinAnswered);
    });
  }

  /**
   * A session another connection of the participant claimed (janus.js `reconnect` after a drop):
   * this one no longer ends it when its own browser says goodbye.
   */
  letGo(sessionId: number) {
    this.relay.sessions.delete(sessionId);
  }

  /** Closes the connection for good (its person removed, or gone): its Janus sessions end first. */
  end(code: number, reason: string) {
    this.relay.endSessions(this.target.apiSecret);
    this.close(code, reason);
  }

  close(code: number, reason: string) {
    if (this.state.name === 'prepared') clearTimeout(this.state.timer);
    if (this.state.name !== 'closed') this.state = { name: 'closing', participantId: this.participantId };
    if (this.browser.readyState === WebSocket.OPEN) this.browser.close(code, reason);
    else this.browser.terminate();
    if (this.relay.upstream.readyState === WebSocket.OPEN) this.relay.upstream.close();
    else this.relay.upstream.terminate();
  }

  private finish() {
    this.enterClosed();
    this.close(1000, 'closed');
  }

  private enterClosed() {
    // A browser socket can report both an error and its close: the bridge is forgotten once.
    if (this.state.name === 'closed') return;
    if (this.state.name === 'prepared') clearTimeout(this.state.timer);
    this.state = { name: 'closed' };
    this.host.forget(this);
  }

  private inTurn(task: () => Promise<void>, onError?: () => void) {
    this.turn = this.turn.then(task).catch((error: unknown) => {
      onError?.();
      this.host.warn(error);
      this.close(1011, 'proxy error');
    });
  }

  private onSession(id: number) {
    if (this.state.name === 'admitted') this.host.sessionsOf(this.state.admitted.participantId).add(id);
  }

  private becomeAdmitted(found: Admitted) {
    if (this.state.name === 'prepared') clearTimeout(this.state.timer);
    const admitted: AdmittedState = {
      name: 'admitted',
      admitted: found,
      joinedHandle: undefined,
      onEarlyJoinAnswered: undefined,
    };
    this.state = admitted;
    this.host.replaceStale(found.participantId, this);
    const own = this.host.sessionsOf(found.participantId);
    for (const id of this.relay.sessions) own.add(id);
    return admitted;
  }

  /** The publisher join of a pre-join connection carries its grant: admit it, or refuse the join. */
  private async admitPrepared(grant: string, transaction: string) {
    const found = await this.host.admit(grant);
    if (this.state.name !== 'prepared') return false;
    if ('refused' in found || found.meetingId !== this.origin.meetingId || found.target.url !== this.target.url) {
      this.browser.send(janusError(transaction, 'not_admitted'));
      return false;
    }
    this.becomeAdmitted(found);
    return true;
  }

  /** `onAnswered`: told once Janus' answer to this publisher join has been passed on (or it went nowhere). */
  private async receive(read: ClientMessage | Refusal, onAnswered?: () => void) {
    if (!this.isOpen) return onAnswered?.();
    const join = this.startedPrepared && read.kind === 'read' ? read.publisherJoin : undefined;
    let onJoinAnswered = onAnswered ?? (() => undefined);
    if (join && !onAnswered && this.state.name === 'admitted' && this.state.onEarlyJoinAnswered) {
      onJoinAnswered = this.state.onEarlyJoinAnswered;
      this.state.onEarlyJoinAnswered = undefined;
    }
    if (this.state.name === 'prepared') {
      if (join?.grant === undefined) {
        // A join without a grant waits for the join-room.php call that names this connection's key.
        if (join && this.origin.joinKey && read.kind === 'read') this.state.parkedJoin = read;
        else
          this.forward(
            filterBeforeAdmission(read, { apiSecret: this.target.apiSecret, sessions: this.relay.sessions }),
          );
        return;
      }
      if (!(await this.admitPrepared(join.grant, join.transaction))) return;
    }
    const state = this.state;
    if (state.name !== 'admitted') return onJoinAnswered();
    if (join) {
      if (join.handleId === state.joinedHandle && join.grant) {
        this.browser.send(janusAck(join.sessionId, join.transaction));
        return;
      }
      state.joinedHandle ??= join.handleId;
    }
    const context = this.filterContext(state.admitted);
    const result = filterClientMessage(read, context);
    if (result.kind === 'forward' && read.kind === 'read' && read.message.janus === 'claim') {
      this.host.claimed(state.admitted.participantId, read.message.session_id, this);
    }
    if (result.kind === 'forward' && result.publishes && read.kind === 'read' && read.message.janus === 'message') {
      const { session_id: sessionId, transaction } = read.message;
      this.expectJoined(
        { sessionId, transaction, publishes: result.publishes, subscribeWith: result.subscribeWith },
        {
          admitted: state.admitted,
          context,
          onJoinAnswered,
        },
      );
    } else {
      onJoinAnswered();
    }
    this.forward(result);
  }

  private filterContext(admitted: Admitted): FilterContext {
    return {
      participantId: admitted.participantId,
      room: admitted.placed.room,
      pin: admitted.placed.pin,
      apiSecret: this.target.apiSecret,
      sessions: new Set([...this.relay.sessions, ...this.host.sessionsOf(admitted.participantId)]),
    };
  }

  private forward(result: ReturnType<typeof filterClientMessage>) {
    this.relay.forward(result, MAX_SESSIONS_PER_CONNECTION);
  }

  /** Janus' answer to a publisher's join: subscribe the page's other handle, and drop a feed left behind. */
  private expectJoined(
    join: { sessionId: number; transaction: string; publishes: FeedKind; subscribeWith: number | undefined },
    by: { admitted: Admitted; context: FilterContext; onJoinAnswered: () => void },
  ) {
    const { admitted, context, onJoinAnswered } = by;
    this.relay.expectAnswer(join.transaction, (data) => {
      const joined = VideoRoomJoinedSchema.safeParse(data);
      if (joined.success) {
        // The others' pictures are what the joiner waits for: their subscription goes up now,
        // not after our answer has crossed to the page and its request has come back (ADR 016).
        const subscribe =
          join.subscribeWith &&
          subscriberJoinFor(
            { sessionId: join.sessionId, handleId: join.subscribeWith, transaction: join.transaction },
            joined.data,
            admitted.participantId,
          );
        if (subscribe) {
          // join-room.php answers once the offer is on its way too: the page, idle until then, answers it first.
          this.relay.expectAnswer(subscribe.transaction, () => onJoinAnswered());
          this.forward(filterClientMessage(subscribe.read, context));
        }
        // A participant coming back replaces the feed it left behind instead of doubling it. The
        // join went up at once (asking Janus first cost every join a round trip); now that Janus
        // has given the new feed its id, any other feed under the same name is the one left behind.
        this.host.kickFeed(admitted.placed, feedDisplay(admitted.participantId, join.publishes), joined.data.id);
        if (subscribe) return;
      }
      onJoinAnswered();
    });
  }
}
