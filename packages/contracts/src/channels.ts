import { z } from 'zod';
import { PublicBroadcastStateSchema } from './broadcast-state.js';
import { nestedData, successBody } from './envelope.js';
import { EpochSecondsSchema, IdSchema, LanguageFieldSchema, TokenSchema, optionalText, text } from './fields.js';
import { DestinationsFieldSchema, RecordFlagSchema } from './streaming.js';
import {
  PageInfoSchema,
  PublicSlugSchema,
  UploadedFileSchema,
  formBoolean,
  jsonInForm,
  pagination,
} from './form-values.js';

/** A channel's address: `/channel/{slug}`. */
export const ChannelSlugSchema = PublicSlugSchema;

export const CHANNEL_CATEGORIES = [
  'other',
  'business',
  'education',
  'technology',
  'science',
  'gaming',
  'music',
  'art',
  'sports',
  'news',
  'talk',
  'lifestyle',
] as const;
export type ChannelCategory = (typeof CHANNEL_CATEGORIES)[number];

export const CHANNEL_VISIBILITIES = ['public', 'unlisted'] as const;
export type ChannelVisibility = (typeof CHANNEL_VISIBILITIES)[number];

export const CHANNEL_LIMITS = { name: 60, description: 2000, links: 5, linkLabel: 40, linkUrl: 300 } as const;

export const ChannelLinkSchema = z.object({
  label: text({ max: CHANNEL_LIMITS.linkLabel }),
  url: z
    .string()
    .trim()
    .max(CHANNEL_LIMITS.linkUrl)
    .pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.domain })),
});
export type ChannelLink = z.infer<typeof ChannelLinkSchema>;

/** Form posts send the links as one JSON-encoded field (empty: no links); JSON bodies the array itself. */
const LinksFieldSchema = jsonInForm(z.array(ChannelLinkSchema).max(CHANNEL_LIMITS.links), { emptyAs: [] });

/** A meeting that belongs to a channel: scheduled, live or past. */
export const BroadcastSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url_slug: z.string(),
  description: z.string(),
  start_time: z.number().int(),
  end_time: z.number().int(),
  state: z.enum(['scheduled', 'live', 'ended']),
  started_at: z.number().int().nullable(),
  ended_at: z.number().int().nullable(),
  /** What the public sees, the same on every page (ADR 022): upcoming, live, replay or ended. */
  public_state: PublicBroadcastStateSchema,
});
export type Broadcast = z.infer<typeof BroadcastSchema>;

export const ChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  category: z.enum(CHANNEL_CATEGORIES),
  avatar: z.string().nullable(),
  cover: z.string().nullable(),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  visibility: z.enum(CHANNEL_VISIBILITIES),
  is_hidden: z.boolean(),
  owner: z.object({ id: z.number().int(), username: z.string(), avatar: z.string().nullable() }),
  followers_count: z.number().int(),
  is_following: z.boolean(),
  can_edit: z.boolean(),
  is_live: z.boolean(),
  created_at: z.number().int(),
});
export type Channel = z.infer<typeof ChannelSchema>;

export const ChannelDetailSchema = ChannelSchema.extend({
  live: BroadcastSchema.nullable(),
  upcoming: z.array(BroadcastSchema),
  past: z.array(BroadcastSchema),
});
export type ChannelDetail = z.infer<typeof ChannelDetailSchema>;

const base = { token: TokenSchema, lng: LanguageFieldSchema };

export const CreateChannelInputSchema = z.object({
  ...base,
  name: text({ min: 2, max: CHANNEL_LIMITS.name }),
  slug: PublicSlugSchema,
  description: optionalText(CHANNEL_LIMITS.description),
  category: z.enum(CHANNEL_CATEGORIES).optional(),
  links: LinksFieldSchema.optional(),
  visibility: z.enum(CHANNEL_VISIBILITIES).optional(),
});
export type CreateChannelInput = z.input<typeof CreateChannelInputSchema>;

export const UpdateChannelInputSchema = z.object({
  ...base,
  id: IdSchema,
  name: text({ min: 2, max: CHANNEL_LIMITS.name }).optional(),
  slug: PublicSlugSchema.optional(),
  description: optionalText(CHANNEL_LIMITS.description),
  category: z.enum(CHANNEL_CATEGORIES).optional(),
  links: LinksFieldSchema.optional(),
  visibility: z.enum(CHANNEL_VISIBILITIES).optional(),
});
export type UpdateChannelInput = z.input<typeof UpdateChannelInputSchema>;

export const ChannelBodySchema = successBody(ChannelDetailSchema);
/** `data.data` is the caller's channel, or null before they create one. */
export const MyChannelBodySchema = nestedData(ChannelDetailSchema.nullable());

export const CheckChannelSlugInputSchema = z.object({ ...base, slug: z.string().max(200) });

export const GetChannelsInputSchema = z.object({
  ...base,
  search: optionalText(100),
  category: z.enum(CHANNEL_CATEGORIES).optional(),
  following: formBoolean.optional(),
  ...pagination,
});
export const ChannelListBodySchema = successBody(PageInfoSchema.extend({ data: z.array(ChannelSchema) }));
export type ChannelList = z.infer<typeof ChannelListBodySchema>['data'];

/** A channel by its slug, or a broadcast by its meeting slug (with the channel it belongs to). */
export const GetChannelInputSchema = z.object({ ...base, slug: z.string().trim().min(1).max(200) });
export const PublicMeetingSchema = BroadcastSchema.extend({
  host: z.object({ id: z.number().int(), username: z.string(), avatar: z.string().nullable() }),
});
export const ChannelPageSchema = z.object({
  channel: ChannelDetailSchema.nullable(),
  broadcast: PublicMeetingSchema.nullable(),
});
export type ChannelPage = z.infer<typeof ChannelPageSchema>;
export const ChannelPageBodySchema = successBody(ChannelPageSchema);

export const ChannelIdInputSchema = z.object({ ...base, id: IdSchema });
export const FollowBodySchema = successBody(z.object({ followers_count: z.number().int(), is_following: z.boolean() }));

export const CHANNEL_IMAGE_KINDS = ['avatar', 'cover'] as const;
export const UploadChannelImageInputSchema = z.object({
  ...base,
  id: IdSchema,
  kind: z.enum(CHANNEL_IMAGE_KINDS),
  file: UploadedFileSchema.optional(),
});

/** A broadcast scheduled from the channel page: a real meeting that belongs to the channel. */
export const ScheduleBroadcastInputSchema = z.object({
  ...base,
  id: IdSchema,
  name: text({ max: 120 }),
  description: optionalText(2000),
  start_time: EpochSecondsSchema,
  end_time: EpochSecondsSchema,
  /** Optional go-live plan (the fields of start-broadcast.php): it starts by itself at its time. */
  destinations: DestinationsFieldSchema.default([]),
  record: RecordFlagSchema.default(0),
});
export const BroadcastBodySchema = successBody(BroadcastSchema);
