import { z } from 'zod';
import { ROLE, RoleIdSchema } from './codes.js';
import { successBody } from './envelope.js';
import {
  EpochSecondsSchema,
  IdSchema,
  LanguageFieldSchema,
  TokenSchema,
  formInt,
  listOf,
  optionalText,
  text,
} from './fields.js';

// The administration area (/admin). Every call needs an administrator's token: a regular user's
// token answers 403 and a missing one 401, and neither changes anything.

const auth = { token: TokenSchema, lng: LanguageFieldSchema };

export const ADMIN_MAX_PAGE_SIZE = 100;
export const ADMIN_DEFAULT_PAGE_SIZE = 25;
/** How many records one bulk call may touch. */
export const ADMIN_MAX_BULK = 500;
/** The widest range the events call expands repeating meetings over. */
export const ADMIN_MAX_EVENT_RANGE_DAYS = 400;

export const SortDirectionSchema = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirectionSchema>;

/** Search text, sort column and direction, page and page size: what every admin table sends. */
function listInput<const Columns extends readonly [string, ...string[]]>(columns: Columns) {
  return {
    ...auth,
    search: optionalText(100),
    sort: z.enum(columns).optional(),
    direction: SortDirectionSchema.optional(),
    page: formInt(z.number().min(1).max(1_000_000)).optional(),
    per_page: formInt(z.number().min(1).max(ADMIN_MAX_PAGE_SIZE)).optional(),
  };
}

/** One page of a table: `data.data` holds the rows, next to the total and the page asked for. */
export function pageOf<T extends z.ZodType>(row: T) {
  return successBody(
    z.object({
      data: z.array(row),
      total: z.number().int(),
      page: z.number().int(),
      per_page: z.number().int(),
    }),
  );
}

/** Several ids at once: repeated form fields, a comma-separated list, or a JSON array. */
const IdListSchema = listOf(IdSchema, { min: 1, max: ADMIN_MAX_BULK });

export const AdminIdInputSchema = z.object({ ...auth, id: IdSchema });
export const AdminIdsInputSchema = z.object({ ...auth, ids: IdListSchema });
export const AdminTokenInputSchema = z.object(auth);

export const AdminPersonSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
});
export type AdminPerson = z.infer<typeof AdminPersonSchema>;

// ---- users ----

export const USER_STATUSES = ['active', 'disabled', 'pending'] as const;
export const UserStatusSchema = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof UserStatusSchema>;

export const AdminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  role_id: RoleIdSchema,
  /** active, disabled, or pending (the e-mail address is not confirmed yet). */
  status: UserStatusSchema,
  disabled_at: z.number().int().nullable(),
  created_at: z.number().int(),
  meetings_count: z.number().int(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const ADMIN_USER_SORTS = ['id', 'username', 'email', 'role_id', 'status', 'created_at'] as const;
export const AdminUserListInputSchema = z.object({
  ...listInput(ADMIN_USER_SORTS),
  role_id: formInt(z.number().min(ROLE.admin).max(ROLE.user)).optional(),
  status: UserStatusSchema.optional(),
});
export type AdminUserListInput = z.input<typeof AdminUserListInputSchema>;
export const AdminUserListBodySchema = pageOf(AdminUserSchema);

export const AdminMeetingStateSchema = z.enum(['scheduled', 'live', 'ended', 'cancelled']);

export const AdminUserMeetingSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url_slug: z.string(),
  start_time: z.number().int(),
  end_time: z.number().int(),
  repeat: z.number().int(),
  state: AdminMeetingStateSchema,
});

export const AdminUserChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  is_hidden: z.boolean(),
  followers: z.number().int(),
});

export const AdminUserDetailBodySchema = successBody(
  z.object({
    data: z.object({
      user: AdminUserSchema,
      active_sessions: z.number().int(),
      meetings: z.array(AdminUserMeetingSchema),
      channel: AdminUserChannelSchema.nullable(),
    }),
  }),
);

export const AdminUpdateRoleInputSchema = z.object({
  ...auth,
  id: IdSchema,
  role_id: formInt(z.number().min(ROLE.admin).max(ROLE.user)),
});

/** What a bulk call did: the ids it changed (unknown or already-changed ids are left out). */
export const AdminBulkBodySchema = successBody(z.object({ ids: z.array(z.number().int()) }));

// ---- meetings ----

export const AdminMeetingSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url_slug: z.string(),
  host: AdminPersonSchema,
  is_schedule: z.number().int(),
  is_private: z.number().int(),
  is_password: z.number().int(),
  repeat: z.number().int(),
  start_time: z.number().int(),
  end_time: z.number().int(),
  state: AdminMeetingStateSchema,
  /** People in the room right now. */
  participants: z.number().int(),
  created_at: z.number().int(),
});
export type AdminMeeting = z.infer<typeof AdminMeetingSchema>;

export const ADMIN_MEETING_SORTS = ['id', 'name', 'host', 'start_time', 'state', 'created_at'] as const;
export const AdminMeetingListInputSchema = z.object({
  ...listInput(ADMIN_MEETING_SORTS),
  state: AdminMeetingStateSchema.optional(),
});
export type AdminMeetingListInput = z.input<typeof AdminMeetingListInputSchema>;
export const AdminMeetingListBodySchema = pageOf(AdminMeetingSchema);

// ---- channels ----

export const AdminChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  owner: AdminPersonSchema,
  visibility: z.enum(['public', 'unlisted']),
  is_hidden: z.boolean(),
  hidden_at: z.number().int().nullable(),
  followers: z.number().int(),
  created_at: z.number().int(),
});
export type AdminChannel = z.infer<typeof AdminChannelSchema>;

export const ADMIN_CHANNEL_SORTS = ['id', 'name', 'owner', 'followers', 'created_at'] as const;
export const AdminChannelListInputSchema = z.object({
  ...listInput(ADMIN_CHANNEL_SORTS),
  hidden: z.enum(['yes', 'no']).optional(),
});
export type AdminChannelListInput = z.input<typeof AdminChannelListInputSchema>;
export const AdminChannelListBodySchema = pageOf(AdminChannelSchema);

// ---- contact messages ----

export const CONTACT_MESSAGE_STATUSES = ['new', 'read', 'answered'] as const;
export const ContactMessageStatusSchema = z.enum(CONTACT_MESSAGE_STATUSES);
export type ContactMessageStatus = z.infer<typeof ContactMessageStatusSchema>;

export const AdminContactMessageSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  status: ContactMessageStatusSchema,
  created_at: z.number().int(),
});
export type AdminContactMessage = z.infer<typeof AdminContactMessageSchema>;

export const ADMIN_CONTACT_SORTS = ['id', 'name', 'email', 'subject', 'status', 'created_at'] as const;
export const AdminContactListInputSchema = z.object({
  ...listInput(ADMIN_CONTACT_SORTS),
  status: ContactMessageStatusSchema.optional(),
});
export type AdminContactListInput = z.input<typeof AdminContactListInputSchema>;
export const AdminContactListBodySchema = pageOf(AdminContactMessageSchema);

export const AdminUpdateContactInputSchema = z.object({ ...auth, id: IdSchema, status: ContactMessageStatusSchema });
export const AdminReplyContactInputSchema = z.object({
  ...auth,
  id: IdSchema,
  subject: optionalText(200),
  /** Line breaks are kept; other control characters are refused. */
  message: text({ max: 10_000 }),
});
export const AdminContactBodySchema = successBody(z.object({ data: AdminContactMessageSchema }));

// ---- events ----

export const AdminEventKindSchema = z.enum(['event', 'meeting']);

export const AdminEventSchema = z.object({
  /** Unique in one answer: `event-{id}` or `meeting-{id}-{occurrence start}`. */
  key: z.string(),
  kind: AdminEventKindSchema,
  /** The calendar event's id, or the meeting's. */
  id: z.number().int(),
  title: z.string(),
  start_time: z.number().int(),
  end_time: z.number().int(),
  is_all_day: z.boolean(),
  color: z.string(),
  owner: AdminPersonSchema,
  /** Meetings only: the repeat code and the room address. */
  repeat: z.number().int(),
  url_slug: z.string().nullable(),
});
export type AdminEvent = z.infer<typeof AdminEventSchema>;

export const AdminEventListInputSchema = z.object({
  ...auth,
  start: EpochSecondsSchema,
  end: EpochSecondsSchema,
  search: optionalText(100),
  kind: AdminEventKindSchema.optional(),
});
export type AdminEventListInput = z.input<typeof AdminEventListInputSchema>;
export const AdminEventListBodySchema = successBody(
  z.object({ data: z.array(AdminEventSchema), truncated: z.boolean() }),
);

/** A calendar event is deleted; one occurrence of a repeating meeting is cancelled; a single meeting is deleted. */
export const AdminDeleteEventInputSchema = z.object({
  ...auth,
  kind: AdminEventKindSchema,
  id: IdSchema,
  occurrence_start: EpochSecondsSchema.optional(),
});

// ---- audit log ----

export const AdminAuditEntrySchema = z.object({
  id: z.number().int(),
  actor: AdminPersonSchema.nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  ip_address: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.number().int(),
});
export type AdminAuditEntry = z.infer<typeof AdminAuditEntrySchema>;

export const AdminAuditListInputSchema = z.object({
  ...auth,
  search: optionalText(100),
  page: formInt(z.number().min(1).max(1_000_000)).optional(),
  per_page: formInt(z.number().min(1).max(ADMIN_MAX_PAGE_SIZE)).optional(),
});
export const AdminAuditListBodySchema = pageOf(AdminAuditEntrySchema);

// ---- dashboard ----

export const WeekCountSchema = z.object({ week_start: z.number().int(), count: z.number().int() });
export type WeekCount = z.infer<typeof WeekCountSchema>;

export const AdminLiveMeetingSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url_slug: z.string(),
  host: AdminPersonSchema,
  participants: z.number().int(),
  started_at: z.number().int().nullable(),
});

export const AdminDashboardSchema = z.object({
  users: z.object({ total: z.number().int(), new_this_week: z.number().int(), disabled: z.number().int() }),
  meetings: z.object({
    scheduled: z.number().int(),
    live_now: z.number().int(),
    minutes_this_month: z.number().int(),
  }),
  channels: z.object({ total: z.number().int(), hidden: z.number().int() }),
  contact_messages: z.object({ waiting: z.number().int() }),
  /** The last 12 weeks (Monday 00:00 UTC), oldest first. */
  signups_per_week: z.array(WeekCountSchema),
  meetings_per_week: z.array(WeekCountSchema),
  live_meetings: z.array(AdminLiveMeetingSchema),
  audit_log: z.array(AdminAuditEntrySchema),
});
export type AdminDashboard = z.infer<typeof AdminDashboardSchema>;
export const AdminDashboardBodySchema = successBody(z.object({ data: AdminDashboardSchema }));

// ---- CSV export ----

export const ADMIN_EXPORT_TABLES = [
  'users',
  'meetings',
  'channels',
  'contact_messages',
  'events',
  'audit_log',
] as const;
export const AdminExportTableSchema = z.enum(ADMIN_EXPORT_TABLES);
export type AdminExportTable = z.infer<typeof AdminExportTableSchema>;

/** Answers text/csv (not JSON) with every row of the table that matches the search. */
export const AdminExportInputSchema = z.object({
  ...auth,
  table: AdminExportTableSchema,
  search: optionalText(100),
  /** Events only: the range, as for admin-get-events.php; defaults to the current month. */
  start: EpochSecondsSchema.optional(),
  end: EpochSecondsSchema.optional(),
});
