import { z } from 'zod';
import { nestedData, successBody } from './envelope.js';
import { IdSchema, LanguageFieldSchema, formInt, text, userText } from './fields.js';
import { BROADCAST_STATES } from './streaming.js';

/**
 * Viewer chat: what the audience of a broadcast says on its public page (`/channel/{meetId}`), and
 * what the channel owner and the meeting's hosts do about it. Calls over HTTP; the server pushes
 * what happened over the `/viewer-chat` Socket.IO namespace.
 */
export const VIEWER_CHAT_LIMITS = {
  text: 500,
  displayName: 40,
  /** A live chat shows the latest messages; a replay gets the whole conversation up to this. */
  liveHistory: 200,
  replayHistory: 5000,
  slowModeSeconds: 300,
  timeoutMinutes: 1440,
} as const;

/** Bumped when a viewer-chat event changes shape; a client that differs is told to reload. */
export const VIEWER_CHAT_PROTOCOL_VERSION = 1;
export const VIEWER_CHAT_NAMESPACE = '/viewer-chat';
export const VIEWER_CHAT_EVENT = 'viewer-chat-event';

const MeetIdSchema = text({ max: 100 });
/** A server-sealed per-browser identity: opaque to the browser, which keeps it in localStorage. */
export const ViewerTokenSchema = z.string().max(300).optional();

export const ViewerChatAuthorSchema = z.object({
  kind: z.enum(['user', 'guest']),
  display_name: z.string(),
  /** The channel owner or one of the meeting's hosts. */
  is_host: z.boolean(),
});

export const ViewerChatMessageSchema = z.object({
  id: z.number().int(),
  author: ViewerChatAuthorSchema,
  /** Plain text: clients render it as text nodes and only turn web addresses into links. */
  text: z.string(),
  /** Seconds from the broadcast's start, for the replay. */
  offset_seconds: z.number(),
  created_at: z.number().int(),
});
export type ViewerChatMessage = z.infer<typeof ViewerChatMessageSchema>;

export const ViewerChatSelfSchema = z.object({
  /** The name this viewer posts under: the account's, or the one the guest chose (null until then). */
  display_name: z.string().nullable(),
  is_guest: z.boolean(),
  is_banned: z.boolean(),
  /** A time-out's end (epoch seconds), else null. */
  muted_until: z.number().int().nullable(),
});

export const ViewerChatStateSchema = z.object({
  broadcast_id: z.number().int(),
  broadcast_state: z.enum(BROADCAST_STATES),
  /** Posting is possible while the broadcast is starting or live; afterwards the chat replays. */
  is_open: z.boolean(),
  slow_mode_seconds: z.number().int(),
  pinned: ViewerChatMessageSchema.nullable(),
  messages: z.array(ViewerChatMessageSchema),
  can_moderate: z.boolean(),
  self: ViewerChatSelfSchema,
});
export type ViewerChatState = z.infer<typeof ViewerChatStateSchema>;

/** Who is asking: a session token, a room grant (hosts in the meeting room), or a guest's viewer token. */
const ViewerChatBaseInput = z.object({
  token: z.string().max(512).optional(),
  grant: z.string().max(100).optional(),
  viewer_token: ViewerTokenSchema,
  meetId: MeetIdSchema,
  lng: LanguageFieldSchema,
});
export const GetViewerChatInputSchema = ViewerChatBaseInput;
export const GetViewerChatIdentityInputSchema = z.object({ viewer_token: ViewerTokenSchema, lng: LanguageFieldSchema });
export const PostViewerChatInputSchema = ViewerChatBaseInput.extend({
  text: userText({ max: VIEWER_CHAT_LIMITS.text }),
  /** Guests only; accounts post under their username. */
  display_name: userText({ max: VIEWER_CHAT_LIMITS.displayName }).optional(),
});
export const ViewerChatMessageInputSchema = ViewerChatBaseInput.extend({ id: IdSchema });
export const VIEWER_CHAT_ACTIONS = ['ban', 'timeout', 'unban'] as const;
export const ModerateViewerChatInputSchema = ViewerChatBaseInput.extend({
  /** The message whose author is banned, timed out or let back in. */
  id: IdSchema,
  action: z.enum(VIEWER_CHAT_ACTIONS),
  minutes: formInt(z.number().min(1).max(VIEWER_CHAT_LIMITS.timeoutMinutes)).optional(),
});
/** Without `id`: unpins (or, for the banner, takes it off the stream). */
export const OptionalMessageInputSchema = ViewerChatBaseInput.extend({ id: IdSchema.optional() });
export const SetViewerChatSlowModeInputSchema = ViewerChatBaseInput.extend({
  seconds: formInt(z.number().min(0).max(VIEWER_CHAT_LIMITS.slowModeSeconds)),
});

export const ViewerChatBodySchema = nestedData(ViewerChatStateSchema.nullable());
export const ViewerChatMessageBodySchema = nestedData(ViewerChatMessageSchema);
export const ViewerChatIdentityBodySchema = successBody(z.object({ viewer_token: z.string() }));

/** Handshake of the `/viewer-chat` namespace: the same credentials as the calls. */
export const ViewerChatAuthSchema = z.object({
  protocol: z.number().int(),
  meetId: MeetIdSchema,
  token: z.string().max(512).optional(),
  grant: z.string().max(100).optional(),
  viewer_token: ViewerTokenSchema,
});
export type ViewerChatAuth = z.infer<typeof ViewerChatAuthSchema>;

/** What the server pushes to everyone watching a meeting's broadcast, keyed on `type`. */
export const ViewerChatEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message.created'), broadcast_id: z.number().int(), message: ViewerChatMessageSchema }),
  z.object({ type: z.literal('message.deleted'), broadcast_id: z.number().int(), id: z.number().int() }),
  z.object({
    type: z.literal('pinned.changed'),
    broadcast_id: z.number().int(),
    message: ViewerChatMessageSchema.nullable(),
  }),
  z.object({ type: z.literal('slow_mode.changed'), broadcast_id: z.number().int(), seconds: z.number().int() }),
  /** Only to the viewer concerned: banned (until null), timed out, or let back in (is_banned false, until null). */
  z.object({
    type: z.literal('self.restricted'),
    is_banned: z.boolean(),
    muted_until: z.number().int().nullable(),
  }),
]);
export type ViewerChatEvent = z.infer<typeof ViewerChatEventSchema>;
