import { z } from 'zod';
import { EmailSchema, LanguageFieldSchema, TokenSchema, text } from './fields.js';

export const CONTACT_US_LIMITS = { name: 100, subject: 150, message: 5000 } as const;

export const ContactUsInputSchema = z.object({
  token: TokenSchema,
  lng: LanguageFieldSchema,
  name: text({ max: CONTACT_US_LIMITS.name }),
  email: EmailSchema,
  subject: text({ max: CONTACT_US_LIMITS.subject }),
  message: text({ min: 10, max: CONTACT_US_LIMITS.message }),
  /** Left empty by people; bots that fill every field fill it too. Hidden from sight in the form. */
  website: z.string().max(2000).optional(),
});
export type ContactUsInput = z.input<typeof ContactUsInputSchema>;
