import { z } from 'zod';
import { RoleIdSchema } from './codes.js';
import { successBody } from './envelope.js';
import { CodeSchema, EmailSchema, LanguageFieldSchema, PasswordSchema, TokenSchema, UsernameSchema } from './fields.js';

export const UserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  role_id: RoleIdSchema,
  language: z.string(),
  time_zone: z.string(),
  created_at: z.number().int(),
});
export type User = z.infer<typeof UserSchema>;

/** `{ token, data: User }`: what sign-in, confirmation and token checks answer. */
export const SessionDataSchema = z.object({ token: z.string(), data: UserSchema });
export const SessionBodySchema = successBody(SessionDataSchema);
export type SessionBody = z.infer<typeof SessionBodySchema>;

const withLanguage = { lng: LanguageFieldSchema };

export const SignupInputSchema = z.object({
  username: UsernameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  ...withLanguage,
});
export type SignupInput = z.infer<typeof SignupInputSchema>;

export const ConfirmSignupInputSchema = z.object({ email: EmailSchema, code: CodeSchema, ...withLanguage });
export const LoginInputSchema = z.object({
  email: EmailSchema,
  // Existing passwords are checked, not re-validated: only the length bound protects the hasher.
  password: z.string().min(1).max(128),
  ...withLanguage,
});
export const TokenInputSchema = z.object({ token: TokenSchema, ...withLanguage });
export const ForgotPasswordInputSchema = z.object({ email: EmailSchema, ...withLanguage });
export const ResetPasswordInputSchema = z.object({
  email: EmailSchema,
  code: CodeSchema,
  password: PasswordSchema,
  ...withLanguage,
});
export const ResendCodeInputSchema = z.object({ email: EmailSchema, ...withLanguage });
