import { z } from 'zod';
import { text } from './fields.js';

/** Polls in a meeting room: a host asks, everyone votes once (and may change it while it is open). */
export const POLL_LIMITS = { question: 300, option: 120, minOptions: 2, maxOptions: 10, perMeeting: 50 } as const;

export const PollSchema = z.object({
  id: z.number(),
  question: z.string(),
  options: z.array(z.object({ text: z.string(), votes: z.number() })),
  closed: z.boolean(),
  created_by: z.string(),
  created_at: z.number(),
  /** The index this participant chose; only in what the server sends to that participant. */
  my_choice: z.number().nullable(),
});
export type Poll = z.infer<typeof PollSchema>;

const PollRef = z.object({ poll_id: z.number().int().positive() });

/** A new poll's question; the host's form checks it with the same rules as the room. */
export const PollQuestionSchema = text({ max: POLL_LIMITS.question });
/** A new poll's answers: two to ten, none the same as another whatever its case. */
export const PollOptionsSchema = z
  .array(text({ max: POLL_LIMITS.option }))
  .min(POLL_LIMITS.minOptions)
  .max(POLL_LIMITS.maxOptions)
  .refine((options) => new Set(options.map((option) => option.toLowerCase())).size === options.length, {
    message: 'duplicate_options',
  });

/** Poll messages of the room protocol (hosts create and close; everyone votes). */
export const PollClientMessageSchemas = [
  z.object({ type: z.literal('host.poll-create'), question: PollQuestionSchema, options: PollOptionsSchema }),
  PollRef.extend({ type: z.literal('host.poll-close') }),
  PollRef.extend({
    type: z.literal('poll.vote'),
    choice: z
      .number()
      .int()
      .min(0)
      .max(POLL_LIMITS.maxOptions - 1),
  }),
] as const;

export const PollServerEventSchemas = [
  /** A poll was created, got a vote or closed: everyone gets the new counts, without anyone's choice. */
  z.object({ type: z.literal('poll.updated'), poll: PollSchema }),
] as const;
