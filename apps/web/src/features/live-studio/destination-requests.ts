import {
  DestinationRequestSchema,
  STREAM_PLATFORMS,
  STREAMING_LIMITS,
  YOUTUBE_PRIVACY,
  type DestinationRequest,
  type StreamConnection,
  type StreamPlatform,
} from '@meetcast/contracts';
import type { FieldError } from 'react-hook-form';
import { z } from 'zod';
import type { SchemaForm } from '../../lib/use-schema-form';

export type YouTubePrivacy = (typeof YOUTUBE_PRIVACY)[number];
export interface TwitchCategory {
  id: string;
  name: string;
}

/**
 * Which fields a platform takes: YouTube makes a live event with a title, a description and a
 * privacy; Twitch sets the channel's title and category; an RTMP address takes the stream as it is.
 */
export function fieldsOf(platform: StreamPlatform) {
  return {
    title: platform === 'youtube' || platform === 'twitch',
    description: platform === 'youtube',
    privacy: platform === 'youtube',
    category: platform === 'twitch',
  };
}

/** What the host typed for one destination: all the fields, of which its platform's are sent. */
const DestinationDraftFieldsSchema = z.object({
  connection_id: z.number(),
  platform: z.enum(STREAM_PLATFORMS),
  title: z.string(),
  description: z.string(),
  privacy: z.enum(YOUTUBE_PRIVACY),
  /** Twitch's category (a Helix game id and its name, for the field to show). */
  category: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type DestinationDraft = z.input<typeof DestinationDraftFieldsSchema>;

/** One destination of start-broadcast / change-broadcast-destination: only the fields its platform takes. */
export function toDestinationRequest(draft: DestinationDraft): z.input<typeof DestinationRequestSchema> {
  const fields = fieldsOf(draft.platform);
  const request: DestinationRequest = { connection_id: draft.connection_id };
  const title = draft.title.trim();
  const description = draft.description.trim();
  if (fields.title && title) request.title = title;
  if (fields.description && description) request.description = description;
  if (fields.privacy) request.privacy = draft.privacy;
  if (fields.category && draft.category) request.category = draft.category.id;
  return request;
}

/**
 * A draft becomes the contract's destination, checked by its schema. The platforms would take the
 * meeting's name for a missing title; the form asks for one so the host sees what goes out.
 */
export const DestinationDraftSchema = DestinationDraftFieldsSchema.refine(
  (draft) => !fieldsOf(draft.platform).title || draft.title.trim() !== '',
  { path: ['title'], message: 'title_required' },
)
  .transform(toDestinationRequest)
  .pipe(DestinationRequestSchema);

/** The go-live plan: the chosen connections (in the order shown), each with its fields, and recording. */
export const GoLivePlanSchema = z.object({
  destinations: z.array(DestinationDraftSchema).max(STREAMING_LIMITS.destinations),
  record: z.boolean(),
});
export type GoLivePlanForm = SchemaForm<typeof GoLivePlanSchema>;
/** A valid plan: the contract's destinations and whether to record. */
export type GoLivePlan = z.output<typeof GoLivePlanSchema>;

export type DestinationProblem = 'title_required' | 'title_too_long' | 'description_too_long';

/** The form's text for a field's error: a title is missing or too long, a description too long. */
export function problemOf(
  field: 'title' | 'description',
  error: FieldError | undefined,
): DestinationProblem | undefined {
  if (!error) return undefined;
  if (field === 'description') return 'description_too_long';
  return error.message === 'title_required' ? 'title_required' : 'title_too_long';
}

/** A fresh draft: the title starts as the meeting's (cut to what the platforms accept). */
export function newDestinationDraft(connection: Pick<StreamConnection, 'id' | 'platform'>, meetingTitle: string) {
  return {
    connection_id: connection.id,
    platform: connection.platform,
    title: meetingTitle.trim().slice(0, STREAMING_LIMITS.title),
    description: '',
    privacy: 'public',
    category: null,
  } satisfies DestinationDraft;
}

/** A destination saved with a plan, as a draft; only the category's id is kept, and stands for its name. */
export function draftOf(saved: DestinationRequest & { platform: StreamPlatform }): DestinationDraft {
  return {
    ...newDestinationDraft({ id: saved.connection_id, platform: saved.platform }, ''),
    title: saved.title ?? '',
    description: saved.description ?? '',
    privacy: saved.privacy ?? 'public',
    category: saved.category ? { id: saved.category, name: saved.category } : null,
  };
}
