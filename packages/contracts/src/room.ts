import { z } from 'zod';
import { successBody } from './envelope.js';
import {
  EpochSecondsSchema,
  formInt,
  LanguageFieldSchema,
  TokenSchema,
  optionalUserText,
  text,
  userText,
} from './fields.js';
import { PollClientMessageSchemas, PollSchema, PollServerEventSchemas } from './polls.js';

/** Bumped when a room message changes shape; a client that differs is told to reload. */
export const ROOM_PROTOCOL_VERSION = 1;
/** The Socket.IO namespace of meeting rooms and the event names its messages travel under. */
export const ROOM_NAMESPACE = '/room';
export const ROOM_EVENT = 'room-event';
export const ROOM_MESSAGE = 'room-message';
/** Where browsers open their media connection (the server's proxy to Janus). */
export const JANUS_PATH = '/janus';
/**
 * The close code of a /janus connection the page leaves while its Janus session goes on elsewhere (a
 * claim over a new connection, ADR 032): the proxy must not end the sessions it carried. Any other
 * close frame ends them.
 */
export const JANUS_CLOSE_SESSION_MOVES = 4001;
/**
 * A pre-join screen's media connection (`/janus?meeting={meetId}&key={key}`) is named by the page's
 * random key; a join-room.php call carrying the key in this header admits that connection at once,
 * and the publisher join the click sent through it goes up to Janus (ADR 016).
 */
export const JOIN_KEY_HEADER = 'x-meetcast-join-key';

/** What a participant publishes: each is one Janus feed, named `participantId:kind` by the proxy. */
export type FeedKind = 'camera' | 'screen';
export const feedDisplay = (participantId: string, kind: FeedKind) => `${participantId}:${kind}`;
/** Whose feed a Janus display names, and of what kind; nothing for a name the proxy did not give. */
export function parseFeedDisplay(display: string | undefined): { participantId: string; kind: FeedKind } | undefined {
  const match = /^(.+):(camera|screen)$/.exec(display ?? '');
  return match ? { participantId: match[1]!, kind: match[2] as FeedKind } : undefined;
}

/** `composer`: the broadcast composer's hidden seat (it only ever sees itself with this role). */
export const PARTICIPANT_ROLES = ['host', 'cohost', 'participant', 'composer'] as const;
export const ParticipantRoleSchema = z.enum(PARTICIPANT_ROLES);
export type ParticipantRole = z.infer<typeof ParticipantRoleSchema>;

/** The reactions a participant can send (shown over their tile for a few seconds). */
export const REACTIONS = ['👍', '👏', '😂', '❤️', '🎉', '😮', '🙌', '🤔'] as const;

const MeetIdSchema = text({ max: 100 });

// ---------------------------------------------------------------- HTTP calls

export const RoomMeetingSchema = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  is_private: z.number(),
  /** 1 when joining asks for the meeting password (the password itself is never sent). */
  is_password: z.number(),
  is_schedule: z.number(),
  state: z.string(),
  locked: z.boolean(),
  host_name: z.string(),
  start_time: z.number(),
  end_time: z.number(),
  /** When it went live (epoch seconds), null before: the call's timer counts from here, not from the page's load. */
  started_at: z.number().nullable().optional(),
});
export type RoomMeeting = z.infer<typeof RoomMeetingSchema>;

export const GetRoomInputSchema = z.object({ meetId: MeetIdSchema, token: TokenSchema, lng: LanguageFieldSchema });
export const GetRoomOutputSchema = successBody(z.object({ meeting: RoomMeetingSchema, is_host: z.boolean() }));

export const JoinRoomInputSchema = z.object({
  meetId: MeetIdSchema,
  token: TokenSchema,
  /** Guests only; signed-in people join with their username. */
  display_name: optionalUserText(60),
  password: z.string().max(128).optional(),
  /**
   * 1: came through the studio's backstage link, so not on a broadcast until a host adds them
   * (ADR 045). The same password, lock and lobby rules apply.
   */
  backstage: formInt(z.number().int().min(0).max(1)).optional(),
  /**
   * Accepted from older pages and ignored: the server names the browser with its own HttpOnly cookie,
   * which the page can neither read nor choose.
   */
  browser_id: z
    .string()
    .regex(/^[\w-]{22,64}$/)
    .optional(),
  lng: LanguageFieldSchema,
});
export const JoinStateSchema = z.enum(['admitted', 'lobby']);
/**
 * STUN/TURN servers a browser's peer connection uses, for callers and viewers alike; a TURN entry's
 * username and credential are made for this answer and expire (the TURN REST API, ADR 035).
 */
export const IceServersSchema = z.array(
  z.object({ urls: z.string(), username: z.string().optional(), credential: z.string().optional() }),
);

/** Where a participant opens the media connection (the server's Janus proxy) and which room to join. */
export const MediaAccessSchema = z.object({
  path: z.string(),
  room: z.number(),
  ice_servers: IceServersSchema,
});
export type MediaAccess = z.infer<typeof MediaAccessSchema>;

export const JoinRoomOutputSchema = successBody(
  z.object({
    /** Short-lived; opens the room's Socket.IO namespace and the /janus media connection. */
    grant: z.string(),
    participant_id: z.string(),
    display_name: z.string(),
    role: ParticipantRoleSchema,
    state: JoinStateSchema,
    meeting: RoomMeetingSchema,
    /**
     * Admitted at once: where to open the media connection, so the browser starts it beside the room
     * connection instead of after its `room.state`. Null in the lobby (absent in answers kept by older tabs).
     */
    media: MediaAccessSchema.nullable().optional(),
  }),
);
export type JoinRoomOutput = z.infer<typeof JoinRoomOutputSchema>;

// ---------------------------------------------------------------- Socket.IO protocol

/** Named reasons a room connection or message is refused. */
export const RoomErrorReasonSchema = z.enum([
  'unauthorized',
  'protocol_mismatch',
  'invalid_message',
  'forbidden',
  'not_found',
  'meeting_ended',
  'removed',
  'denied',
  'in_lobby',
  'rate_limited',
  'media_unavailable',
]);
export type RoomErrorReason = z.infer<typeof RoomErrorReasonSchema>;

export const RoomAuthSchema = z.object({ grant: z.string().min(20).max(100), protocol: z.number().int() });
export type RoomAuth = z.infer<typeof RoomAuthSchema>;

export const ParticipantSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  role: ParticipantRoleSchema,
  is_guest: z.boolean(),
  audio: z.boolean(),
  video: z.boolean(),
  screen: z.boolean(),
  hand_raised: z.boolean(),
  /** When the hand went up (epoch milliseconds), null while it is down: hosts see hands in the order raised. */
  hand_raised_at: z.number().int().nonnegative().nullable().optional(),
  joined_at: EpochSecondsSchema,
  /** Their connections dropped; their seat is kept for the reconnect grace (ADR 032). */
  reconnecting: z.boolean().optional(),
});
export type Participant = z.infer<typeof ParticipantSchema>;

export const ChatMessageSchema = z.object({
  id: z.number(),
  participant_id: z.string().nullable(),
  display_name: z.string(),
  /** Plain text; clients render it as text and only turn URLs into links. */
  text: z.string(),
  created_at: z.number(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const LobbyEntrySchema = z.object({ participant_id: z.string(), display_name: z.string() });
export type LobbyEntry = z.infer<typeof LobbyEntrySchema>;

const ParticipantRef = z.object({ participant_id: z.string().min(1).max(40) });

export const ROOM_CHAT_TEXT_MAX = 2000;
/** One line of the room's chat as a participant writes it. */
export const RoomChatTextSchema = userText({ max: ROOM_CHAT_TEXT_MAX });

/** What a participant's browser sends, each acknowledged with a RoomAck. */
export const RoomClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('media.state'), audio: z.boolean(), video: z.boolean(), screen: z.boolean() }),
  z.object({ type: z.literal('chat.send'), text: RoomChatTextSchema }),
  z.object({ type: z.literal('hand.set'), raised: z.boolean() }),
  z.object({ type: z.literal('reaction.send'), emoji: z.enum(REACTIONS) }),
  z.object({ type: z.literal('room.leave') }),
  ParticipantRef.extend({ type: z.literal('host.mute') }),
  z.object({ type: z.literal('host.mute-all') }),
  ParticipantRef.extend({ type: z.literal('host.stop-video') }),
  /** A host or co-host lowers someone's raised hand (answered, or raised by mistake). */
  ParticipantRef.extend({ type: z.literal('host.lower-hand') }),
  ParticipantRef.extend({ type: z.literal('host.remove') }),
  ParticipantRef.extend({ type: z.literal('host.admit') }),
  ParticipantRef.extend({ type: z.literal('host.deny') }),
  ParticipantRef.extend({ type: z.literal('host.promote') }),
  z.object({ type: z.literal('host.lock'), locked: z.boolean() }),
  z.object({ type: z.literal('host.end') }),
  ...PollClientMessageSchemas,
]);
export type RoomClientMessage = z.infer<typeof RoomClientMessageSchema>;

export const RoomAckSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), reason: RoomErrorReasonSchema }),
]);
export type RoomAck = z.infer<typeof RoomAckSchema>;

/** What the server pushes to a participant, keyed on `type`. */
export const RoomServerEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('room.state'),
    protocol: z.number(),
    self: ParticipantSchema,
    participants: z.array(ParticipantSchema),
    lobby: z.array(LobbyEntrySchema),
    locked: z.boolean(),
    chat: z.array(ChatMessageSchema),
    polls: z.array(PollSchema),
    meeting: RoomMeetingSchema,
    media: MediaAccessSchema.nullable(),
    /** How long this page may be cut off and still come back into its seat by itself (ADR 032). */
    reconnect_grace_seconds: z.number().int().positive(),
  }),
  z.object({ type: z.literal('lobby.waiting'), meeting: RoomMeetingSchema }),
  z.object({ type: z.literal('lobby.admitted') }),
  z.object({ type: z.literal('lobby.denied') }),
  z.object({ type: z.literal('lobby.changed'), lobby: z.array(LobbyEntrySchema) }),
  z.object({ type: z.literal('participant.joined'), participant: ParticipantSchema }),
  z.object({ type: z.literal('participant.updated'), participant: ParticipantSchema }),
  z.object({ type: z.literal('participant.left'), participant_id: z.string() }),
  /** Their connections dropped: the tile says "reconnecting…" until they are back or the grace is over. */
  z.object({ type: z.literal('participant.reconnecting'), participant_id: z.string() }),
  /** Back after a drop, in the same seat. */
  z.object({ type: z.literal('participant.back'), participant: ParticipantSchema }),
  z.object({ type: z.literal('chat.message'), message: ChatMessageSchema }),
  z.object({ type: z.literal('reaction'), participant_id: z.string(), emoji: z.enum(REACTIONS) }),
  z.object({ type: z.literal('room.locked'), locked: z.boolean() }),
  z.object({ type: z.literal('moderation'), action: z.enum(['mute', 'stop-video', 'lower-hand']), by: z.string() }),
  z.object({ type: z.literal('removed') }),
  z.object({ type: z.literal('room.ended') }),
  z.object({ type: z.literal('error'), reason: RoomErrorReasonSchema }),
  ...PollServerEventSchemas,
]);
export type RoomServerEvent = z.infer<typeof RoomServerEventSchema>;
