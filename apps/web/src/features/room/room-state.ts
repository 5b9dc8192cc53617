import type {
  ChatMessage,
  LobbyEntry,
  MediaAccess,
  Participant,
  Poll,
  RoomErrorReason,
  RoomMeeting,
  RoomServerEvent,
} from '@meetcast/contracts';

export type RoomPhase = 'connecting' | 'lobby' | 'in-room' | 'denied' | 'removed' | 'ended' | 'error';

export interface RoomState {
  phase: RoomPhase;
  isSocketConnected: boolean;
  error: RoomErrorReason | undefined;
  self: Participant | undefined;
  participants: Record<string, Participant>;
  lobby: LobbyEntry[];
  chat: ChatMessage[];
  unreadChat: number;
  polls: Poll[];
  locked: boolean;
  meeting: RoomMeeting | undefined;
  media: MediaAccess | null;
  /** Reactions shown for a few seconds: id, participant, emoji. */
  reactions: { key: number; participantId: string; emoji: string }[];
  moderation: { key: number; action: 'mute' | 'stop-video' | 'lower-hand'; by: string } | undefined;
  admittedAt: number | undefined;
  /** How long this page may be cut off and still come back into its seat by itself (ADR 032). */
  reconnectGraceSeconds: number;
  /** When the room connection dropped (ms), while it is down. */
  disconnectedAt: number | undefined;
}

export const initialRoomState: RoomState = {
  phase: 'connecting',
  isSocketConnected: false,
  error: undefined,
  self: undefined,
  participants: {},
  lobby: [],
  chat: [],
  unreadChat: 0,
  polls: [],
  locked: false,
  meeting: undefined,
  media: null,
  reactions: [],
  moderation: undefined,
  admittedAt: undefined,
  reconnectGraceSeconds: 120,
  disconnectedAt: undefined,
};

export type RoomAction =
  | { type: 'server'; event: RoomServerEvent; isChatOpen: boolean }
  | { type: 'socket'; isConnected: boolean }
  | { type: 'refused'; reason: RoomErrorReason }
  | { type: 'chat-read' }
  | { type: 'poll-voted'; pollId: number; choice: number }
  | { type: 'reaction-expired'; key: number };

let sequence = 0;

/**
 * Whose video the media watchdog expects: those whose camera is on, but not someone reconnecting,
 * whose frozen picture is theirs to mend (repairing our own connection for it only disturbs everyone).
 */
export function expectedCameras(participants: Record<string, Participant>): string[] {
  return Object.values(participants).flatMap((p) => (p.video && !p.reconnecting ? [p.id] : []));
}

export function roomReducer(state: RoomState, action: RoomAction): RoomState {
  switch (action.type) {
    case 'socket':
      return {
        ...state,
        isSocketConnected: action.isConnected,
        disconnectedAt: action.isConnected ? undefined : (state.disconnectedAt ?? Date.now()),
      };
    case 'refused': {
      const phase: RoomPhase =
        action.reason === 'removed'
          ? 'removed'
          : action.reason === 'denied'
            ? 'denied'
            : action.reason === 'meeting_ended'
              ? 'ended'
              : 'error';
      return { ...state, phase, error: action.reason };
    }
    case 'chat-read':
      return { ...state, unreadChat: 0 };
    case 'poll-voted':
      return {
        ...state,
        polls: state.polls.map((poll) => (poll.id === action.pollId ? { ...poll, my_choice: action.choice } : poll)),
      };
    case 'reaction-expired':
      return { ...state, reactions: state.reactions.filter((r) => r.key !== action.key) };
    case 'server':
      return applyEvent(state, action.event, action.isChatOpen);
  }
}

function applyEvent(state: RoomState, event: RoomServerEvent, isChatOpen: boolean): RoomState {
  switch (event.type) {
    case 'room.state':
      return {
        ...state,
        phase: 'in-room',
        error: state.error === 'media_unavailable' ? state.error : undefined,
        self: event.self,
        participants: Object.fromEntries(event.participants.map((p) => [p.id, p])),
        lobby: event.lobby,
        chat: event.chat,
        polls: event.polls,
        locked: event.locked,
        meeting: event.meeting,
        media: event.media,
        reconnectGraceSeconds: event.reconnect_grace_seconds,
      };
    case 'lobby.waiting':
      return { ...state, phase: 'lobby', meeting: event.meeting };
    case 'lobby.admitted':
      return { ...state, phase: 'connecting', admittedAt: Date.now() };
    case 'lobby.denied':
      return { ...state, phase: 'denied' };
    case 'lobby.changed':
      return { ...state, lobby: event.lobby };
    case 'participant.reconnecting': {
      const participant = state.participants[event.participant_id];
      if (!participant) return state;
      return {
        ...state,
        participants: { ...state.participants, [participant.id]: { ...participant, reconnecting: true } },
      };
    }
    case 'participant.joined':
    case 'participant.back':
    case 'participant.updated': {
      const participant = event.participant;
      const self = state.self?.id === participant.id ? participant : state.self;
      return { ...state, self, participants: { ...state.participants, [participant.id]: participant } };
    }
    case 'participant.left': {
      const rest = { ...state.participants };
      delete rest[event.participant_id];
      return { ...state, participants: rest };
    }
    case 'chat.message':
      return {
        ...state,
        chat: [...state.chat, event.message].slice(-500),
        unreadChat: isChatOpen || event.message.participant_id === state.self?.id ? 0 : state.unreadChat + 1,
      };
    case 'reaction':
      return {
        ...state,
        reactions: [
          ...state.reactions,
          { key: ++sequence, participantId: event.participant_id, emoji: event.emoji },
        ].slice(-30),
      };
    case 'poll.updated':
      return { ...state, polls: withPoll(state.polls, event.poll) };
    case 'room.locked':
      return { ...state, locked: event.locked };
    case 'moderation':
      return { ...state, moderation: { key: ++sequence, action: event.action, by: event.by } };
    case 'removed':
      return { ...state, phase: 'removed' };
    case 'room.ended':
      return { ...state, phase: 'ended' };
    case 'error':
      return { ...state, error: event.reason };
  }
}

/** New counts from the room; what this person chose is theirs only and never in a broadcast. */
function withPoll(polls: Poll[], poll: Poll): Poll[] {
  const known = polls.find((existing) => existing.id === poll.id);
  if (!known) return [...polls, poll];
  return polls.map((existing) => (existing.id === poll.id ? { ...poll, my_choice: existing.my_choice } : existing));
}
