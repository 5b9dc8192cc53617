import { ROOM_EVENT, type Participant, type RoomServerEvent } from '@meetcast/contracts';
import type { Namespace } from 'socket.io';
import type { AppContext } from '../context.js';
import type { PlacedRoom } from '../media/media-service.js';
import { lobbyRows, participantRows } from './room-lifecycle.js';
import { describeParticipant, hosts, lobby, members, person, type RoomSocketData } from './room-moderation.js';

type Later = (ms: number, task: () => Promise<void>) => void;
/** The /janus connections of this process (the media proxy), dropped when someone must leave. */
export interface MediaConnections {
  disconnect(filter: { participantId?: string; meetingId?: number }): void;
  /** Someone was just admitted with this grant: their connection's join needs no lookup; `link` names it. */
  expectJoin(
    grant: string,
    answered: { participantId: string; meetingId: number; placed: PlacedRoom },
    link?: { key: string; address: string },
  ): Promise<void>;
}

/**
 * Who is connected where, across every server process (Socket.IO rooms, shared by the Redis
 * adapter), and how a message reaches them: the room hub's view of its sockets.
 */
export class RoomSockets {
  constructor(
    private readonly context: AppContext,
    private readonly namespace: Namespace,
    private readonly mediaConnections: MediaConnections,
    private readonly later: Later,
  ) {}

  emit(target: string, event: RoomServerEvent) {
    this.namespace.to(target).emit(ROOM_EVENT, event);
  }

  dropMedia(filter: { participantId?: string; meetingId?: number }) {
    this.mediaConnections.disconnect(filter);
    // Only cluster adapters (Redis) carry messages between server processes.
    if (this.context.redis) this.namespace.serverSideEmit('room:drop', filter);
  }

  /** Everyone connected to the meeting, on any server process (the composer is nobody). */
  async presence(meetingId: number): Promise<Participant[]> {
    const sockets = await this.namespace.in(members(meetingId)).fetchSockets();
    const latest = new Map<string, RoomSocketData>();
    for (const socket of sockets) {
      const data = socket.data as RoomSocketData;
      if (!data.isComposer) latest.set(data.participantId, data);
    }
    const rows = await participantRows(this.context, [...latest.keys()]);
    return [...latest.values()].flatMap((data) => {
      const row = rows.get(data.participantId);
      return row && row.state === 'admitted' ? [describeParticipant(row, data)] : [];
    });
  }

  /** Whether anyone but the composer is still connected: a meeting filmed for nobody ends. */
  async hasPeople(meetingId: number) {
    const sockets = await this.namespace.in(members(meetingId)).fetchSockets();
    return sockets.some((socket) => !(socket.data as RoomSocketData).isComposer);
  }

  async lobbyList(meetingId: number) {
    const sockets = await this.namespace.in(lobby(meetingId)).fetchSockets();
    const waiting = new Set(sockets.map((socket) => (socket.data as RoomSocketData).participantId));
    const rows = await lobbyRows(this.context, meetingId);
    return rows
      .filter((row) => waiting.has(row.id))
      .map((row) => ({ participant_id: row.id, display_name: row.displayName }));
  }

  async announceLobby(meetingId: number) {
    this.emit(hosts(meetingId), { type: 'lobby.changed', lobby: await this.lobbyList(meetingId) });
  }

  async stillConnected(participantId: string) {
    return (await this.namespace.in(person(participantId)).fetchSockets()).length > 0;
  }

  sendEveryoneAway(meetingId: number) {
    this.emit(members(meetingId), { type: 'room.ended' });
    this.emit(lobby(meetingId), { type: 'room.ended' });
    this.dropMedia({ meetingId });
    // Those here now, after the acknowledgement of host.end has gone out: not a host who restarts
    // the meeting meanwhile (an instant meeting's link stays usable).
    const present = Promise.all([
      this.namespace.in(members(meetingId)).fetchSockets(),
      this.namespace.in(lobby(meetingId)).fetchSockets(),
    ]);
    this.later(200, async () => {
      for (const socket of (await present).flat()) socket.disconnect(true);
    });
  }
}
