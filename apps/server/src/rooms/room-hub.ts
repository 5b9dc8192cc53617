import {
  FALLBACK_LANGUAGE,
  ROOM_EVENT,
  ROOM_MESSAGE,
  ROOM_NAMESPACE,
  ROOM_PROTOCOL_VERSION,
  RoomAuthSchema,
  RoomClientMessageSchema,
  type RoomAck,
  type RoomServerEvent,
} from '@meetcast/contracts';
import type { Namespace, Server, Socket } from 'socket.io';
import type { AppContext } from '../context.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import { finishSession } from './end-meetings.js';
import { extendGrant, renewGrant, type MeetingRow, type ParticipantRow } from './grants.js';
import { RoomDepartures } from './room-departures.js';
import { RoomHands } from './room-hands.js';
import { onHostMessage, type HostMessageRoom } from './room-host-messages.js';
import { onParticipantMessage, type ParticipantMessageRoom } from './room-participant-messages.js';
import { ensureMedia, mediaAccess, roomMeeting } from './room-service.js';
import { pollsFor } from './room-polls.js';
import { RoomSockets, type MediaConnections } from './room-sockets.js';
import { chatHistory, isAnyoneExpectedBack, markLive, openAttendance } from './room-lifecycle.js';
import {
  ChatBudget,
  connectingSocketData,
  describeParticipant,
  hosts,
  isHostRole,
  lobby,
  members,
  participantWithMeeting,
  person,
  Refusal,
  type RoomSocketData,
} from './room-moderation.js';
import { toEpochSeconds } from '../platform/time.js';

interface Admission {
  participant: ParticipantRow;
  meeting: MeetingRow;
  hostName?: string | null;
}

export interface RoomHubOptions {
  /** How long a meeting everyone left may stay empty (someone reloading) before its session is over. */
  emptyGraceMs: number;
  /** How long someone who closed their connection is still shown before they count as gone. */
  leaveGraceMs: number;
  /** How long someone whose connections dropped keeps their seat, and keeps the meeting alive (ADR 032). */
  reconnectGraceMs: number;
  /** Drops live /janus connections (of a participant, or of a whole meeting) on this process. */
  mediaConnections: MediaConnections;
}

/**
 * The `/room` Socket.IO namespace: presence, chat, hands, reactions, lobby and host controls.
 * Every message is a RoomClientMessage validated at runtime and acknowledged with a RoomAck.
 */
export class RoomHub {
  private namespace!: Namespace;
  private sockets!: RoomSockets;
  private departures!: RoomDepartures;
  private hands!: RoomHands;
  private hostRoom!: HostMessageRoom;
  private participantRoom!: ParticipantMessageRoom;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly chatBudget = new ChatBudget();
  /** What the handshake just read about each connecting socket, so the connection need not read it again. */
  private readonly admissions = new WeakMap<Socket, Admission>();

  constructor(
    private readonly context: AppContext,
    private readonly options: RoomHubOptions,
  ) {}

  attach(io: Server) {
    this.namespace = io.of(ROOM_NAMESPACE);
    this.sockets = new RoomSockets(this.context, this.namespace, this.options.mediaConnections, (ms, task) =>
      this.later(ms, task),
    );
    this.departures = new RoomDepartures(
      this.context,
      this.sockets,
      this.options,
      (ms, task) => this.later(ms, task),
      (meetingId) => this.endIfEmpty(meetingId),
    );
    this.hands = new RoomHands(this.context, this.namespace, this.sockets);
    const { context, namespace, sockets, hands, chatBudget } = this;
    this.hostRoom = { context, namespace, sockets, hands };
    this.participantRoom = { context, sockets, chatBudget, later: (ms, task) => this.later(ms, task) };
    // However a meeting ended (endMeetings), its people learn it here and their media connections go.
    this.context.events.on('meeting.ended', ({ meetingIds }) => {
      for (const meetingId of meetingIds) this.sockets.sendEveryoneAway(meetingId);
    });
    this.namespace.use((socket, next) => {
      this.authenticate(socket).then(
        () => next(),
        (error: unknown) => {
          // Not a refusal (the database did not answer): no named reason, so the page tries again.
          if (!(error instanceof Refusal)) this.context.log.warn({ err: error }, 'room: handshake failed');
          next(new Error(error instanceof Refusal ? error.reason : 'try_again'));
        },
      );
    });
    this.namespace.on('connection', (socket) => {
      this.onConnection(socket).catch((error: unknown) => {
        this.context.log.error({ err: error }, 'room: connection setup failed');
        socket.disconnect(true);
      });
    });
    // Another server process removed someone or ended a meeting: drop their media here too.
    this.namespace.on('room:drop', (filter: { participantId?: string; meetingId?: number }) => {
      this.options.mediaConnections.disconnect(filter);
    });
  }

  close() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private later(ms: number, task: () => Promise<void>) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task().catch((error: unknown) => this.context.log.error({ err: error }, 'room: deferred task failed'));
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private async authenticate(socket: Socket) {
    const auth = RoomAuthSchema.safeParse(socket.handshake.auth);
    if (!auth.success) throw new Refusal('invalid_message');
    if (auth.data.protocol !== ROOM_PROTOCOL_VERSION) throw new Refusal('protocol_mismatch');
    // Renewed: someone back from a drop holds a grant that only their connection kept alive.
    const found = await renewGrant(this.context.db, auth.data.grant);
    if (!found) throw new Refusal('unauthorized');
    const { participant, meeting } = found;
    if (meeting.state === 'ended' || meeting.state === 'cancelled' || participant.state === 'left') {
      throw new Refusal('meeting_ended');
    }
    if (participant.state === 'removed') throw new Refusal('removed');
    if (participant.state === 'denied') throw new Refusal('denied');
    socket.data = connectingSocketData(participant);
    this.admissions.set(socket, found);
  }

  private async onConnection(socket: Socket) {
    const data = socket.data as RoomSocketData;
    const found: Admission | undefined =
      this.admissions.get(socket) ?? (await participantWithMeeting(this.context, data.participantId));
    this.admissions.delete(socket);
    if (!found) return void socket.disconnect(true);
    const { participant } = found;
    let meeting = found.meeting;
    await socket.join(person(participant.id));
    const keepAlive = setInterval(
      () => void extendGrant(this.context.db, participant.id).catch(() => undefined),
      60_000,
    );
    keepAlive.unref();
    socket.on('disconnect', (reason) => {
      clearInterval(keepAlive);
      this.onDisconnect(data, reason).catch((error: unknown) =>
        this.context.log.error({ err: error }, 'room: leave failed'),
      );
    });
    socket.on(ROOM_MESSAGE, (raw: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (answer: RoomAck) => void) : () => undefined;
      this.onMessage(socket, raw).then(
        () => reply({ ok: true }),
        (error: unknown) => {
          if (!(error instanceof Refusal)) this.context.log.error({ err: error }, 'room: message failed');
          reply({ ok: false, reason: error instanceof Refusal ? error.reason : 'invalid_message' });
        },
      );
    });
    if (!data.admitted) {
      await socket.join(lobby(meeting.id));
      socket.emit(ROOM_EVENT, {
        type: 'lobby.waiting',
        // Whoever knocks was not invited (invitees are admitted at once): they see no details.
        meeting: await roomMeeting(this.context, meeting, { user: undefined, language: FALLBACK_LANGUAGE }),
      } satisfies RoomServerEvent);
      await this.sockets.announceLobby(meeting.id);
      return;
    }
    let media: Extract<RoomServerEvent, { type: 'room.state' }>['media'] = null;
    try {
      // Placed at admission (join-room.php); the media proxy checks the room is there on connecting.
      media = await mediaAccess(
        this.context,
        meeting.janusRoomId ?? (await ensureMedia(this.context, meeting)).room,
        participant.id,
      );
    } catch {
      socket.emit(ROOM_EVENT, { type: 'error', reason: 'media_unavailable' } satisfies RoomServerEvent);
    }
    if (!data.isComposer && meeting.state !== 'live') {
      await markLive(this.context, meeting.id);
      meeting = (await new MeetingRepository(this.context.db).findById(meeting.id)) ?? meeting;
    }
    if (!data.isComposer) data.joinedAt = toEpochSeconds(await openAttendance(this.context, participant));
    await socket.join(members(meeting.id));
    if (isHostRole(participant.role)) await socket.join(hosts(meeting.id));
    const connected = await this.sockets.presence(meeting.id);
    const participants = [...connected, ...(await this.departures.reconnectingIn(meeting.id, connected))];
    const self = participants.find((p) => p.id === participant.id) ?? describeParticipant(participant, data);
    socket.emit(ROOM_EVENT, {
      type: 'room.state',
      protocol: ROOM_PROTOCOL_VERSION,
      self,
      participants,
      lobby: isHostRole(participant.role) ? await this.sockets.lobbyList(meeting.id) : [],
      locked: meeting.isLocked,
      chat: await chatHistory(this.context, meeting.id),
      polls: await pollsFor(this.context.db, participant),
      meeting: await roomMeeting(this.context, meeting, undefined, found.hostName),
      media,
      reconnect_grace_seconds: Math.round(this.options.reconnectGraceMs / 1000),
    } satisfies RoomServerEvent);
    if (data.isComposer) return;
    const arrival: RoomServerEvent = this.departures.returned(participant.id)
      ? { type: 'participant.back', participant: self }
      : { type: 'participant.joined', participant: self };
    socket.to(members(meeting.id)).emit(ROOM_EVENT, arrival);
  }

  private async onDisconnect(data: RoomSocketData, reason: string) {
    if (data.isComposer) return;
    if (!data.admitted) {
      await this.sockets.announceLobby(data.meetingId);
      return;
    }
    this.departures.departed(data, reason);
  }

  private async endIfEmpty(meetingId: number) {
    if (await this.sockets.hasPeople(meetingId)) return;
    // Someone dropped and may still come back: the end of their grace asks again.
    if (await isAnyoneExpectedBack(this.context, meetingId)) return;
    const meeting = await new MeetingRepository(this.context.db).findById(meetingId);
    if (!meeting || meeting.state !== 'live') return;
    await finishSession(this.context, meeting, 'empty');
  }

  private async onMessage(socket: Socket, raw: unknown) {
    const parsed = RoomClientMessageSchema.safeParse(raw);
    if (!parsed.success) throw new Refusal('invalid_message');
    const data = socket.data as RoomSocketData;
    if (!data.admitted) throw new Refusal('in_lobby');
    const found = await participantWithMeeting(this.context, data.participantId);
    if (!found || found.participant.state !== 'admitted' || data.isComposer) throw new Refusal('forbidden');
    const message = parsed.data;
    if (message.type.startsWith('host.')) {
      if (!isHostRole(found.participant.role)) throw new Refusal('forbidden');
      await onHostMessage(this.hostRoom, found.participant, found.meeting, message);
      return;
    }
    await onParticipantMessage(this.participantRoom, socket, data, found.participant, message);
  }
}
