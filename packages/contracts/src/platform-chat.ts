import { z } from 'zod';
import { nestedData } from './envelope.js';
import { LanguageFieldSchema, text, TokenSchema } from './fields.js';

/**
 * Platform chat (ADR 040): what viewers write on YouTube and Twitch while a broadcast is live there,
 * read by the server and pushed to the studio of the meeting's managers, beside the channel page's
 * own viewer chat. Any of these messages may go on the stream as a comment card.
 */
export const CHAT_PLATFORMS = ['youtube', 'twitch'] as const;
export type ChatPlatform = (typeof CHAT_PLATFORMS)[number];
/** Where a comment card's message came from: a platform's chat or the channel page's (`meetcast`). */
export const COMMENT_SOURCES = [...CHAT_PLATFORMS, 'meetcast'] as const;
export type CommentSource = (typeof COMMENT_SOURCES)[number];

export const PLATFORM_CHAT_LIMITS = {
  /** Platform texts are clipped to this (YouTube allows 200 characters, Twitch 500). */
  text: 500,
  authorName: 100,
  /** Messages the studio gets when it opens: the latest ones. */
  history: 100,
} as const;

/** Socket.IO event name (on the broadcast-events namespace) under which every PlatformChatEvent travels. */
export const PLATFORM_CHAT_EVENT = 'platform-chat-event';

/** Plain text only: the server strips markup and control characters; clients render text nodes. */
export const PlatformChatMessageSchema = z.object({
  /** The platform's own message id. */
  id: z.string(),
  platform: z.enum(CHAT_PLATFORMS),
  author_name: z.string(),
  text: z.string(),
  /** Epoch seconds, as the platform says. */
  published_at: z.number(),
});
export type PlatformChatMessage = z.infer<typeof PlatformChatMessageSchema>;

/** Pushed only to the sockets of the meeting's managers. */
export const PlatformChatEventSchema = z.object({
  type: z.literal('message.created'),
  meeting_id: z.number().int(),
  broadcast_id: z.number().int(),
  message: PlatformChatMessageSchema,
});
export type PlatformChatEvent = z.infer<typeof PlatformChatEventSchema>;

/** A viewer's message on the stream: name, picture (a `data:` image, or null for initials), text. */
export const CommentCardSchema = z.object({
  source: z.enum(COMMENT_SOURCES),
  author_name: z.string(),
  avatar: z.string().nullable(),
  text: z.string(),
});
export type CommentCard = z.infer<typeof CommentCardSchema>;

export const PlatformChatBodySchema = nestedData(z.array(PlatformChatMessageSchema));

/** Puts a message on the stream as the comment card; without `message_id`, takes the card down. */
export const GetPlatformChatInputSchema = z.object({
  token: TokenSchema,
  lng: LanguageFieldSchema,
  meetId: text({ max: 100 }),
});
/** Puts a message on the stream as the comment card (both fields); without `message_id`, takes it down. */
export const ShowCommentCardInputSchema = GetPlatformChatInputSchema.extend({
  source: z.enum(COMMENT_SOURCES).optional(),
  message_id: text({ max: 200 }).optional(),
});
