import type { Namespace } from 'socket.io';
import type { AppContext } from '../context.js';
import { members, person, Refusal, type RoomSocketData } from './room-moderation.js';
import type { RoomSockets } from './room-sockets.js';

/** The server-side event that carries a host's lowering of a hand to the other server processes. */
const LOWER_HAND_ELSEWHERE = 'room:lower-hand';

/**
 * Raises or puts down a hand on one connection. The time it went up is the hand's place in the queue
 * hosts see; raised again while up, a hand keeps that place.
 */
export function setHand(data: RoomSocketData, raised: boolean) {
  if (raised && !data.handRaised) data.handRaisedAt = Date.now();
  data.handRaised = raised;
  if (!raised) data.handRaisedAt = null;
}

/**
 * The raised-hands queue of every meeting on this namespace: its order lives in each socket's data
 * (what presence reads), so a host lowering someone's hand changes it wherever their sockets live.
 */
export class RoomHands {
  constructor(
    private readonly context: AppContext,
    private readonly namespace: Namespace,
    private readonly sockets: RoomSockets,
  ) {
    // A host on another server process lowered the hand of someone connected here.
    namespace.on(LOWER_HAND_ELSEWHERE, (participantId: string) => this.lowerHere(participantId));
  }

  /** A host (or co-host) called `by` puts the participant's hand down; the room sees it, they are told who. */
  async lowerByHost(meetingId: number, participantId: string, by: string) {
    this.lowerHere(participantId);
    // Only cluster adapters (Redis) carry messages between server processes.
    if (this.context.redis) this.namespace.serverSideEmit(LOWER_HAND_ELSEWHERE, participantId);
    const present = (await this.sockets.presence(meetingId)).find((participant) => participant.id === participantId);
    if (!present) throw new Refusal('not_found');
    // Presence may have read a socket on another process before that process lowered the hand.
    const lowered = { ...present, hand_raised: false, hand_raised_at: null };
    this.sockets.emit(members(meetingId), { type: 'participant.updated', participant: lowered });
    this.sockets.emit(person(participantId), { type: 'moderation', action: 'lower-hand', by });
  }

  /** A socket's data can only be changed on the process it lives on. */
  private lowerHere(participantId: string) {
    for (const socket of this.namespace.sockets.values()) {
      const data = socket.data as RoomSocketData;
      if (data.participantId === participantId) setHand(data, false);
    }
  }
}
