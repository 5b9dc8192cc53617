import { z } from 'zod';
import { UserSchema } from './accounts.js';
import { nestedData, successBody } from './envelope.js';
import {
  CodeSchema,
  EmailSchema,
  IdSchema,
  LanguageFieldSchema,
  PasswordSchema,
  TokenSchema,
  UsernameSchema,
  formInt,
} from './fields.js';
import { UploadedFileSchema, formBoolean } from './form-values.js';
import { LANGUAGES } from './languages.js';

export const REMINDER_MINUTES_MAX = 1440;

/** An IANA time zone name the runtime knows (`Europe/Paris`, `UTC`, …). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value.length <= 64;
  } catch {
    return false;
  }
}
export const TimeZoneSchema = z.string().trim().min(1).max(64).refine(isTimeZone, { message: 'time_zone' });

export const ProfileSchema = UserSchema.extend({
  has_password: z.boolean(),
  /** The address waiting for its confirmation code, if an e-mail change is under way. */
  pending_email: z.string().nullable(),
  default_meeting_password: z.boolean(),
  reminder_minutes: z.number().int(),
});
export type Profile = z.infer<typeof ProfileSchema>;

const base = { token: TokenSchema, lng: LanguageFieldSchema };

export const ProfileInputSchema = z.object(base);
export const ProfileBodySchema = nestedData(ProfileSchema);

export const UpdateProfileInputSchema = z.object({
  ...base,
  username: UsernameSchema.optional(),
  email: EmailSchema.optional(),
  language: z.enum(LANGUAGES).optional(),
  time_zone: TimeZoneSchema.optional(),
  default_meeting_password: formBoolean.optional(),
  reminder_minutes: formInt(z.number().min(0).max(REMINDER_MINUTES_MAX)).optional(),
});
export type UpdateProfileInput = z.input<typeof UpdateProfileInputSchema>;

export const ConfirmEmailChangeInputSchema = z.object({ ...base, code: CodeSchema });

export const UploadAvatarInputSchema = z.object({ ...base, file: UploadedFileSchema.optional() });

export const ChangePasswordInputSchema = z.object({
  ...base,
  /** Required when the account has a password; accounts from external sign-in may set a first one. */
  current_password: z.string().max(128).optional(),
  password: PasswordSchema,
});

export const SessionInfoSchema = z.object({
  id: z.number().int(),
  user_agent: z.string().nullable(),
  ip_address: z.string().nullable(),
  created_at: z.number().int(),
  last_used_at: z.number().int(),
  is_current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;
export const SessionListBodySchema = nestedData(z.array(SessionInfoSchema));
export const RevokeSessionInputSchema = z.object({ ...base, id: IdSchema });

/** Everything the server keeps about the caller, as one JSON document. */
export const MyDataBodySchema = successBody(
  z.object({ filename: z.string(), data: z.record(z.string(), z.unknown()) }),
);

export const DeleteAccountInputSchema = z.object({
  ...base,
  /** The current password; an account without one confirms by typing its e-mail address instead. */
  password: z.string().max(128).optional(),
  confirm_email: z.string().max(254).optional(),
});
