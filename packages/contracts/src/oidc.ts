import { z } from 'zod';
import { nestedData, successBody } from './envelope.js';
import { LanguageFieldSchema, TokenSchema } from './fields.js';

/** The web route the provider sends people back to (ADR 004). */
export const EXTERNAL_LOGIN_CALLBACK_PATH = '/meetcast-names-login';

/** `get-auth-config.php`: whether to show the "Sign in with …" button, and its name. */
export const AuthConfigSchema = z.object({
  oidc: z.object({ display_name: z.string() }).nullable(),
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
export const AuthConfigBodySchema = successBody(AuthConfigSchema);
export const AuthConfigInputSchema = z.object({ lng: LanguageFieldSchema });

/** `start-external-login.php`: the provider's authorization address to send the browser to. */
export const StartExternalLoginInputSchema = z.object({ lng: LanguageFieldSchema });
export const StartExternalLoginBodySchema = successBody(z.object({ url: z.string() }));

/**
 * `meetcast-names-login.php`: `token` is the `code` of the provider's redirect (the contract's
 * field). The callback page also forwards `state`, `iss` and `error` from the same redirect.
 * Everything is optional here so that a missing piece answers a clear message, not a field list.
 */
export const ExternalLoginInputSchema = z.object({
  token: z.string().max(4096).optional(),
  state: z.string().max(1024).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  lng: LanguageFieldSchema,
});
export type ExternalLoginInput = z.infer<typeof ExternalLoginInputSchema>;

/** One linked external identity, as the profile lists it. */
export const ExternalIdentitySchema = z.object({
  id: z.number().int(),
  /** The provider's display name (OIDC_DISPLAY_NAME). */
  provider: z.string(),
  email: z.string().nullable(),
  created_at: z.number().int(),
});
export type ExternalIdentity = z.infer<typeof ExternalIdentitySchema>;

/** `get-sign-in-methods.php`: `data.data` says whether a password is set and lists linked providers. */
export const SignInMethodsSchema = z.object({
  has_password: z.boolean(),
  external: z.array(ExternalIdentitySchema),
});
export type SignInMethods = z.infer<typeof SignInMethodsSchema>;
export const SignInMethodsBodySchema = nestedData(SignInMethodsSchema);
export const SignInMethodsInputSchema = z.object({ token: TokenSchema, lng: LanguageFieldSchema });
