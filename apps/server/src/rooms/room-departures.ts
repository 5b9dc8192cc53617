import type { Participant } from '@meetcast/contracts';
import type { AppContext } from '../context.js';
import { closeAttendance, participantRows } from './room-lifecycle.js';
import { describeParticipant, members, type RoomSocketData } from './room-moderation.js';
import type { RoomSockets } from './room-sockets.js';

type Later = (ms: number, task: () => Promise<void>) => void;

export interface RoomDeparturesOptions {
  /** Someone gone is announced (left, or reconnecting…) only after this: a reload is back before it. */
  leaveGraceMs: number;
  /** How long a meeting everyone left may stay empty before its session is over. */
  emptyGraceMs: number;
  /** How long a dropped participant keeps their seat (ROOM_RECONNECT_GRACE_SECONDS, ADR 032). */
  reconnectGraceMs: number;
}

/**
 * How an admitted participant's connection ends. A page that closes it (or the server, removing them)
 * has left: the others are told after the leave grace, the meeting may end after the empty grace. A
 * connection that drops without a goodbye (a network change, a laptop asleep, a stalled tab, a server
 * restart) keeps its seat, role and lobby decision for the reconnect grace: the others see them as
 * reconnecting, and their attendance stays open, which keeps the meeting alive (ADR 032). Once the
 * grace is over without them, they count as having left when they dropped, and their feeds go.
 */
export class RoomDepartures {
  /** Per participant dropped on this process: when, and what their socket said last. */
  private readonly dropped = new Map<string, { since: number; data: RoomSocketData }>();

  constructor(
    private readonly context: AppContext,
    private readonly sockets: RoomSockets,
    private readonly options: RoomDeparturesOptions,
    private readonly later: Later,
    /** Ends the meeting's session if nobody is in it and nobody is expected back. */
    private readonly endIfEmpty: (meetingId: number) => Promise<void>,
  ) {}

  /** An admitted participant's socket disconnected, for this Socket.IO reason. */
  departed(data: RoomSocketData, reason: string) {
    const isGoodbye = reason === 'client namespace disconnect' || reason === 'server namespace disconnect';
    if (isGoodbye) this.left(data);
    // A ping that went unanswered means seconds of silence already: no reload comes back now.
    else this.drop(data, reason === 'ping timeout' ? 0 : this.options.leaveGraceMs);
  }

  private left(data: RoomSocketData) {
    const leftAt = new Date();
    this.later(this.options.leaveGraceMs, async () => {
      if (await this.sockets.stillConnected(data.participantId)) return;
      this.sockets.emit(members(data.meetingId), { type: 'participant.left', participant_id: data.participantId });
    });
    this.later(this.options.emptyGraceMs, async () => {
      if (!(await this.sockets.stillConnected(data.participantId)))
        await closeAttendance(this.context, data.participantId, leftAt);
      await this.endIfEmpty(data.meetingId);
    });
  }

  private drop(data: RoomSocketData, announceAfterMs: number) {
    const since = Date.now();
    this.dropped.set(data.participantId, { since, data });
    // A later drop of the same person (back, then gone again) runs its own grace.
    const isThisDrop = () => this.dropped.get(data.participantId)?.since === since;
    this.later(announceAfterMs, async () => {
      if (!isThisDrop() || (await this.sockets.stillConnected(data.participantId))) return;
      this.sockets.emit(members(data.meetingId), {
        type: 'participant.reconnecting',
        participant_id: data.participantId,
      });
    });
    this.later(this.options.reconnectGraceMs, async () => {
      if (!isThisDrop()) return;
      this.dropped.delete(data.participantId);
      if (await this.sockets.stillConnected(data.participantId)) return;
      await closeAttendance(this.context, data.participantId, new Date(since));
      this.sockets.emit(members(data.meetingId), { type: 'participant.left', participant_id: data.participantId });
      // Janus keeps a dropped page's session for the whole grace, to be claimed back: now it is over,
      // their connections (if the proxy still holds any) end their sessions, and what is left is kicked.
      this.sockets.dropMedia({ participantId: data.participantId });
      await this.context.media.kickParticipant(data.meetingId, data.participantId);
      await this.endIfEmpty(data.meetingId);
    });
  }
  /** Whether this participant, connecting now, is coming back from a drop (and no longer dropped). */
  returned(participantId: string): boolean {
    return this.dropped.delete(participantId);
  }

  /** The dropped participants of a meeting not connected meanwhile, as someone arriving sees them. */
  async reconnectingIn(meetingId: number, connected: Participant[]): Promise<Participant[]> {
    const present = new Set(connected.map((participant) => participant.id));
    const waiting = [...this.dropped.values()].filter(
      ({ data }) => data.meetingId === meetingId && !present.has(data.participantId),
    );
    const rows = await participantRows(
      this.context,
      waiting.map(({ data }) => data.participantId),
    );
    return waiting.flatMap(({ data }) => {
      const row = rows.get(data.participantId);
      return row?.state === 'admitted' ? [{ ...describeParticipant(row, data), reconnecting: true }] : [];
    });
  }
}
