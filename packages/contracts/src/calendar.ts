import { z } from 'zod';
import { nestedData, successBody } from './envelope.js';
import { EpochSecondsSchema, IdSchema, LanguageFieldSchema, TokenSchema, optionalText, text } from './fields.js';
import { MeetingOccurrenceSchema } from './meetings.js';

export const EVENT_TITLE_MAX = 200;
export const EVENT_DESCRIPTION_MAX = 5000;
export const EVENT_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
export const DEFAULT_EVENT_COLOR = '#4f46e5';
/** The longest range one calendar call may ask for. */
export const CALENDAR_RANGE_MAX_DAYS = 400;

const withLanguage = { token: TokenSchema, lng: LanguageFieldSchema };

/** A yes/no form field: 1/0, true/false. */
export const FlagSchema = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])])
  .transform((value) => value === true || value === 1 || value === '1' || value === 'true');

const eventFields = {
  ...withLanguage,
  title: text({ max: EVENT_TITLE_MAX }),
  description: optionalText(EVENT_DESCRIPTION_MAX),
  start_time: EpochSecondsSchema,
  end_time: EpochSecondsSchema,
  is_all_day: FlagSchema.optional(),
  color: z.string().trim().regex(EVENT_COLOR_PATTERN).optional(),
};

export const AddEventInputSchema = z.object(eventFields);
export type AddEventInput = z.infer<typeof AddEventInputSchema>;
export const EditEventInputSchema = z.object({ ...eventFields, id: IdSchema });
export const EventIdInputSchema = z.object({ ...withLanguage, id: IdSchema });
export const EventRangeInputSchema = z.object({
  ...withLanguage,
  start_time: EpochSecondsSchema.optional(),
  end_time: EpochSecondsSchema.optional(),
});
export const CalendarRangeInputSchema = z.object({
  ...withLanguage,
  start_time: EpochSecondsSchema,
  end_time: EpochSecondsSchema,
});

export const CalendarEventSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  start_time: z.number().int(),
  end_time: z.number().int(),
  is_all_day: z.boolean(),
  color: z.string(),
  created_at: z.number().int(),
});
export type CalendarEvent = z.infer<typeof CalendarEventSchema>;

export const CalendarEventBodySchema = successBody(CalendarEventSchema);
export const CalendarEventListBodySchema = nestedData(z.array(CalendarEventSchema));
export const CalendarBodySchema = successBody(
  z.object({ events: z.array(CalendarEventSchema), meetings: z.array(MeetingOccurrenceSchema) }),
);
export type CalendarData = z.infer<typeof CalendarBodySchema>['data'];
