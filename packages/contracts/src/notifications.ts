import { z } from 'zod';
import { nestedData } from './envelope.js';
import { IdSchema, LanguageFieldSchema, TokenSchema } from './fields.js';

export const NotificationSchema = z.object({
  id: z.number().int(),
  text: z.string(),
  created_at: z.number().int(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationListBodySchema = nestedData(z.array(NotificationSchema));
export const ClearNotificationInputSchema = z.object({
  token: TokenSchema,
  id: IdSchema,
  lng: LanguageFieldSchema,
});
