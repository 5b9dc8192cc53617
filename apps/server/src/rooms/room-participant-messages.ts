import type { RoomClientMessage } from '@meetcast/contracts';
import type { Socket } from 'socket.io';
import type { AppContext } from '../context.js';
import type { ParticipantRow } from './grants.js';
import { setHand } from './room-hands.js';
import { closeAttendance, storeChat } from './room-lifecycle.js';
import { describeParticipant, members, Refusal, type ChatBudget, type RoomSocketData } from './room-moderation.js';
import { votePoll } from './room-polls.js';
import type { RoomSockets } from './room-sockets.js';

/** What anyone's message acts through: the room's sockets, the chat budget and the hub's timers. */
export interface ParticipantMessageRoom {
  context: AppContext;
  sockets: RoomSockets;
  chatBudget: ChatBudget;
  later: (ms: number, task: () => Promise<void>) => void;
}

/** A message any admitted participant may send: media state, hand, chat, poll vote, reaction, leave. */
export async function onParticipantMessage(
  room: ParticipantMessageRoom,
  socket: Socket,
  data: RoomSocketData,
  participant: ParticipantRow,
  message: RoomClientMessage,
) {
  const { context, sockets, chatBudget } = room;
  const everyone = members(data.meetingId);
  switch (message.type) {
    case 'media.state':
    case 'hand.set': {
      if (message.type === 'hand.set') setHand(data, message.raised);
      else {
        if (data.screen !== message.screen) toldScreenShare(context, data, message.screen);
        Object.assign(data, { audio: message.audio, video: message.video, screen: message.screen });
      }
      sockets.emit(everyone, { type: 'participant.updated', participant: describeParticipant(participant, data) });
      return;
    }
    case 'chat.send': {
      chatBudget.spend(participant.id);
      sockets.emit(everyone, { type: 'chat.message', message: await storeChat(context, participant, message.text) });
      return;
    }
    case 'poll.vote': {
      chatBudget.spend(participant.id);
      const poll = await votePoll(context.db, participant, message.poll_id, message.choice);
      sockets.emit(everyone, { type: 'poll.updated', poll });
      return;
    }
    case 'reaction.send':
      chatBudget.spend(participant.id);
      sockets.emit(everyone, { type: 'reaction', participant_id: participant.id, emoji: message.emoji });
      return;
    case 'room.leave':
      if (data.screen) toldScreenShare(context, data, false);
      await closeAttendance(context, participant.id, new Date());
      socket.leave(everyone);
      sockets.emit(everyone, { type: 'participant.left', participant_id: participant.id });
      room.later(0, async () => void socket.disconnect(true));
      return;
    default:
      throw new Refusal('invalid_message');
  }
}

/** A screen share started or stopped: other features (a broadcast's chapters) hear of it. */
function toldScreenShare(context: AppContext, data: RoomSocketData, isSharing: boolean) {
  const event = { meetingId: data.meetingId, participantId: data.participantId, isSharing };
  void context.events.emit('room.screen-share', event);
}
