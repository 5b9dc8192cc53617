import { ROOM_EVENT, type RoomClientMessage, type RoomServerEvent } from '@meetcast/contracts';
import type { Namespace } from 'socket.io';
import type { AppContext } from '../context.js';
import { finishSession } from './end-meetings.js';
import type { MeetingRow, ParticipantRow } from './grants.js';
import type { RoomHands } from './room-hands.js';
import { closePoll, createPoll } from './room-polls.js';
import type { RoomSockets } from './room-sockets.js';
import { closeAttendance } from './room-lifecycle.js';
import {
  decideLobby,
  hosts,
  markRemoved,
  members,
  moderationTarget,
  person,
  promoteToCohost,
  Refusal,
  setRoomLocked,
} from './room-moderation.js';

/** What a host's message acts through: the room's namespace, its sockets and its raised hands. */
export interface HostMessageRoom {
  context: AppContext;
  namespace: Namespace;
  sockets: RoomSockets;
  hands: RoomHands;
}

/** A `host.*` message from a host or co-host (the caller checked the role) of a live meeting. */
export async function onHostMessage(
  room: HostMessageRoom,
  actor: ParticipantRow,
  meeting: MeetingRow,
  message: RoomClientMessage,
) {
  const { context, namespace, sockets } = room;
  const by = actor.displayName;
  switch (message.type) {
    case 'host.mute':
    case 'host.stop-video': {
      const target = await moderationTarget(context, meeting.id, message.participant_id);
      const action = message.type === 'host.mute' ? 'mute' : 'stop-video';
      sockets.emit(person(target.id), { type: 'moderation', action, by });
      return;
    }
    case 'host.lower-hand': {
      const target = await moderationTarget(context, meeting.id, message.participant_id);
      await room.hands.lowerByHost(meeting.id, target.id, by);
      return;
    }
    case 'host.mute-all':
      namespace
        .to(members(meeting.id))
        .except(person(actor.id))
        .emit(ROOM_EVENT, { type: 'moderation', action: 'mute', by } satisfies RoomServerEvent);
      return;
    case 'host.remove': {
      const target = await moderationTarget(context, meeting.id, message.participant_id);
      if (target.role === 'host' || target.id === actor.id) throw new Refusal('forbidden');
      await markRemoved(context, target.id);
      await closeAttendance(context, target.id, new Date());
      sockets.emit(person(target.id), { type: 'removed' });
      namespace.in(person(target.id)).disconnectSockets(true);
      sockets.dropMedia({ participantId: target.id });
      await context.media.kickParticipant(meeting.id, target.id);
      sockets.emit(members(meeting.id), { type: 'participant.left', participant_id: target.id });
      await sockets.announceLobby(meeting.id);
      return;
    }
    case 'host.admit':
    case 'host.deny': {
      const target = await moderationTarget(context, meeting.id, message.participant_id);
      if (target.state !== 'lobby') throw new Refusal('not_found');
      const admitted = message.type === 'host.admit';
      await decideLobby(context, target.id, admitted);
      sockets.emit(person(target.id), { type: admitted ? 'lobby.admitted' : 'lobby.denied' });
      if (!admitted) namespace.in(person(target.id)).disconnectSockets(true);
      await sockets.announceLobby(meeting.id);
      return;
    }
    case 'host.promote': {
      if (actor.role !== 'host') throw new Refusal('forbidden');
      const target = await moderationTarget(context, meeting.id, message.participant_id);
      if (target.state !== 'admitted' || target.role !== 'participant') throw new Refusal('forbidden');
      await promoteToCohost(context, target.id);
      namespace.in(person(target.id)).socketsJoin(hosts(meeting.id));
      const updated = (await sockets.presence(meeting.id)).find((p) => p.id === target.id);
      if (updated) sockets.emit(members(meeting.id), { type: 'participant.updated', participant: updated });
      sockets.emit(person(target.id), { type: 'lobby.changed', lobby: await sockets.lobbyList(meeting.id) });
      return;
    }
    case 'host.lock':
      await setRoomLocked(context, meeting.id, message.locked);
      sockets.emit(members(meeting.id), { type: 'room.locked', locked: message.locked });
      return;
    case 'host.end':
      await finishSession(context, meeting, 'host');
      return;
    case 'host.poll-create':
    case 'host.poll-close': {
      const poll =
        message.type === 'host.poll-create'
          ? await createPoll(context.db, actor, message.question, message.options)
          : await closePoll(context.db, meeting.id, message.poll_id);
      sockets.emit(members(meeting.id), { type: 'poll.updated', poll });
      return;
    }
    default:
      throw new Refusal('invalid_message');
  }
}
