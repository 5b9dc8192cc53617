import type { CallDefinition } from './call.js';
import {
  ConfirmSignupInputSchema,
  ForgotPasswordInputSchema,
  LoginInputSchema,
  ResendCodeInputSchema,
  ResetPasswordInputSchema,
  SessionBodySchema,
  SignupInputSchema,
  TokenInputSchema,
} from '../accounts.js';
import { MessageBodySchema } from '../envelope.js';
import { ClearNotificationInputSchema, NotificationListBodySchema } from '../notifications.js';
import {
  AuthConfigBodySchema,
  AuthConfigInputSchema,
  ExternalLoginInputSchema,
  SignInMethodsBodySchema,
  SignInMethodsInputSchema,
  StartExternalLoginBodySchema,
  StartExternalLoginInputSchema,
} from '../oidc.js';

/* Sign-up, sign-in (also with an external provider) and notifications. */
export const getAuthConfig = {
  name: 'get-auth-config.php',
  auth: 'none',
  input: AuthConfigInputSchema,
  output: AuthConfigBodySchema,
} as const satisfies CallDefinition;
export const startExternalLogin = {
  name: 'start-external-login.php',
  auth: 'none',
  input: StartExternalLoginInputSchema,
  output: StartExternalLoginBodySchema,
} as const satisfies CallDefinition;
export const meetcastNamesLogin = {
  name: 'meetcast-names-login.php',
  auth: 'none',
  input: ExternalLoginInputSchema,
  output: SessionBodySchema,
} as const satisfies CallDefinition;
export const getSignInMethods = {
  name: 'get-sign-in-methods.php',
  auth: 'user',
  input: SignInMethodsInputSchema,
  output: SignInMethodsBodySchema,
} as const satisfies CallDefinition;
export const getUserNotification = {
  name: 'get-user-notification.php',
  auth: 'user',
  input: TokenInputSchema,
  output: NotificationListBodySchema,
} as const satisfies CallDefinition;
export const clearUserNotification = {
  name: 'clear-user-notification.php',
  auth: 'user',
  input: ClearNotificationInputSchema,
  output: NotificationListBodySchema,
} as const satisfies CallDefinition;
export const signup = {
  name: 'signup.php',
  auth: 'none',
  input: SignupInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const resendSignupCode = {
  name: 'resend-signup-code.php',
  auth: 'none',
  input: ResendCodeInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const confirmSignup = {
  name: 'confirm-signup.php',
  auth: 'none',
  input: ConfirmSignupInputSchema,
  output: SessionBodySchema,
} as const satisfies CallDefinition;
export const login = {
  name: 'login.php',
  auth: 'none',
  input: LoginInputSchema,
  output: SessionBodySchema,
} as const satisfies CallDefinition;
export const logout = {
  name: 'logout.php',
  auth: 'user',
  input: TokenInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const forgotPassword = {
  name: 'forgot-password.php',
  auth: 'none',
  input: ForgotPasswordInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const resetPassword = {
  name: 'reset-password.php',
  auth: 'none',
  input: ResetPasswordInputSchema,
  output: MessageBodySchema,
} as const satisfies CallDefinition;
export const tokenverify = {
  name: 'tokenverify.php',
  auth: 'user',
  input: TokenInputSchema,
  output: SessionBodySchema,
} as const satisfies CallDefinition;
