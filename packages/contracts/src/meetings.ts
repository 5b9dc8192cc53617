import { z } from 'zod';
import { successBody } from './envelope.js';
import {
  EmailSchema,
  EpochSecondsSchema,
  IdSchema,
  LanguageFieldSchema,
  TokenSchema,
  formInt,
  listOf,
  optionalText,
  text,
} from './fields.js';

/**
 * Meeting links (`/room/{slug}`): lower-case letters, digits and hyphens, 3 to 64 characters,
 * unique across the installation. The server answers each problem with its own message.
 */
export const SLUG_MIN = 3;
export const SLUG_MAX = 64;
export const SLUG_PATTERN = /^[a-z0-9-]+$/;
export type SlugProblem = 'empty' | 'too_short' | 'too_long' | 'invalid_characters';

export function slugProblem(slug: string): SlugProblem | undefined {
  if (slug.trim() === '') return 'empty';
  if (!SLUG_PATTERN.test(slug)) return 'invalid_characters';
  if (slug.length < SLUG_MIN) return 'too_short';
  if (slug.length > SLUG_MAX) return 'too_long';
  return undefined;
}

export const MEETING_NAME_MAX = 200;
export const MEETING_DESCRIPTION_MAX = 5000;
export const MEETING_PASSWORD_MAX = 64;
export const MAX_INVITEES = 100;
/** A start chosen "now" in the minute-precise picker reaches the server a little later. */
export const START_GRACE_SECONDS = 90;
export const MeetingStateSchema = z.enum(['scheduled', 'live', 'ended', 'cancelled']);

const withLanguage = { token: TokenSchema, lng: LanguageFieldSchema };

/** Raw text: the server checks it itself so that each problem gets its own message. */
const rawText = (max: number) => z.string().max(max);

export const EmailListSchema = listOf(EmailSchema, { max: MAX_INVITEES }).optional();
const ContactIdListSchema = listOf(IdSchema, { max: MAX_INVITEES }).optional();

export const CheckMeetNameInputSchema = z.object({
  ...withLanguage,
  /** The slug typed (the contract calls the field `name`). */
  name: rawText(1000).optional(),
  /** When editing: the meeting whose own slug does not count as taken. */
  id: IdSchema.optional(),
});

const meetingFields = {
  ...withLanguage,
  name: text({ max: MEETING_NAME_MAX }),
  slug: rawText(1000),
  /** 1 scheduled, 0 instant. */
  is_schedule: formInt().optional(),
  start_time: EpochSecondsSchema,
  end_time: EpochSecondsSchema,
  /** 2 public (default), 1 private. */
  is_private: formInt().optional(),
  /** 1 yes, 2 no (default); only meaningful for private meetings. */
  is_password: formInt().optional(),
  password: rawText(1000).optional(),
  /** 0 none, 1 every day, 7 every week, 14 every two weeks, 30 every month. */
  repeat: formInt().optional(),
  description: optionalText(MEETING_DESCRIPTION_MAX),
  /** E-mail addresses to invite. */
  invitees: EmailListSchema,
  /** Ids of the caller's contacts to invite. */
  invitee_contacts: ContactIdListSchema,
  /** IANA time zone the meeting repeats in; defaults to the host's. */
  time_zone: z.string().max(64).optional(),
};

export const AddMeetingInputSchema = z.object(meetingFields);
export type AddMeetingInput = z.infer<typeof AddMeetingInputSchema>;

export const EditMeetingInputSchema = z.object({ ...meetingFields, id: IdSchema });
export type EditMeetingInput = z.infer<typeof EditMeetingInputSchema>;

export const AddInstantMeetingInputSchema = z.object({
  ...withLanguage,
  name: text({ max: MEETING_NAME_MAX }),
  slug: rawText(1000),
});

export const InviteeSchema = z.object({
  email: z.string(),
  user_id: z.number().int().nullable(),
  username: z.string().nullable(),
});
export type Invitee = z.infer<typeof InviteeSchema>;

export const MeetingSchema = z.object({
  id: z.number().int(),
  host_id: z.number().int(),
  host_name: z.string(),
  name: z.string(),
  slug: z.string(),
  url_slug: z.string(),
  description: z.string(),
  is_schedule: z.number().int(),
  start_time: z.number().int(),
  end_time: z.number().int(),
  is_private: z.number().int(),
  is_password: z.number().int(),
  /** The meeting password, only for its host and invitees; null otherwise or when there is none. */
  password: z.string().nullable(),
  repeat: z.number().int(),
  time_zone: z.string(),
  state: MeetingStateSchema,
  is_host: z.boolean(),
  /** The invitees; only the host sees the list. */
  invitees: z.array(InviteeSchema),
  created_at: z.number().int(),
});
export type Meeting = z.infer<typeof MeetingSchema>;

export const AttendanceSummarySchema = z.object({
  /** First join and last leave within this occurrence; null when nobody joined. */
  started_at: z.number().int().nullable(),
  ended_at: z.number().int().nullable(),
  duration_seconds: z.number().int(),
  participants: z.array(z.object({ name: z.string(), user_id: z.number().int().nullable() })),
});
export type AttendanceSummary = z.infer<typeof AttendanceSummarySchema>;

/** One occurrence of a meeting: the meeting plus when this occurrence runs. */
export const MeetingOccurrenceSchema = MeetingSchema.extend({
  occurrence_start: z.number().int(),
  occurrence_end: z.number().int(),
  /** Recent meetings only: who joined and for how long. */
  attendance: AttendanceSummarySchema.nullable(),
});
export type MeetingOccurrence = z.infer<typeof MeetingOccurrenceSchema>;

export const MEETINGS_PAGE_SIZE_MAX = 100;
export const MeetingListInputSchema = z.object({
  ...withLanguage,
  page: formInt(z.number().min(1).max(100_000)).optional(),
  per_page: formInt(z.number().min(1).max(MEETINGS_PAGE_SIZE_MAX)).optional(),
  search: optionalText(200),
});
export type MeetingListInput = z.infer<typeof MeetingListInputSchema>;

export const MeetingPageSchema = z.object({
  data: z.array(MeetingOccurrenceSchema),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type MeetingPage = z.infer<typeof MeetingPageSchema>;
export const MeetingListBodySchema = successBody(MeetingPageSchema);

export const MeetingIdInputSchema = z.object({ ...withLanguage, id: IdSchema });
export const CancelMeetingInputSchema = z.object({
  ...withLanguage,
  id: IdSchema,
  /** Cancel only the occurrence starting then; without it the whole series is cancelled. */
  occurrence_start: EpochSecondsSchema.optional(),
});

export const MeetingBodySchema = successBody(MeetingSchema);
export const InstantMeetingBodySchema = successBody(
  z.object({ url_slug: z.string(), password: z.string().optional() }),
);

export const IcsFileSchema = z.object({ filename: z.string(), content: z.string() });
export const IcsFileBodySchema = successBody(IcsFileSchema);
export const CalendarFeedBodySchema = successBody(z.object({ url: z.string() }));

export const DashboardSchema = z.object({
  next_meetings: z.array(MeetingOccurrenceSchema),
  meetings_this_week: z.number().int(),
  hours_met: z.number(),
  contacts_count: z.number().int(),
  /** Oldest first; the last entry is the current week (weeks start on Monday in the user's zone). */
  meetings_per_week: z.array(z.object({ week_start: z.number().int(), count: z.number().int() })),
});
export type Dashboard = z.infer<typeof DashboardSchema>;
export const DashboardBodySchema = successBody(DashboardSchema);

/** The room link of a meeting, with its password when the caller may know it. */
export function meetingRoomPath(meeting: { url_slug: string; password?: string | null }): string {
  const base = `/room/${encodeURIComponent(meeting.url_slug)}`;
  return meeting.password ? `${base}?password=${encodeURIComponent(meeting.password)}` : base;
}
