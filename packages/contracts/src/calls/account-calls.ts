import type { CallTable } from './call.js';
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

/** Sign-up, sign-in (also with an external provider) and notifications. */
export const accountCalls = {
  'get-auth-config.php': { auth: 'none', input: AuthConfigInputSchema, output: AuthConfigBodySchema },
  'start-external-login.php': {
    auth: 'none',
    input: StartExternalLoginInputSchema,
    output: StartExternalLoginBodySchema,
  },
  'meetcast-names-login.php': { auth: 'none', input: ExternalLoginInputSchema, output: SessionBodySchema },
  'get-sign-in-methods.php': { auth: 'user', input: SignInMethodsInputSchema, output: SignInMethodsBodySchema },
  'get-user-notification.php': { auth: 'user', input: TokenInputSchema, output: NotificationListBodySchema },
  'clear-user-notification.php': {
    auth: 'user',
    input: ClearNotificationInputSchema,
    output: NotificationListBodySchema,
  },
  'signup.php': { auth: 'none', input: SignupInputSchema, output: MessageBodySchema },
  'resend-signup-code.php': { auth: 'none', input: ResendCodeInputSchema, output: MessageBodySchema },
  'confirm-signup.php': { auth: 'none', input: ConfirmSignupInputSchema, output: SessionBodySchema },
  'login.php': { auth: 'none', input: LoginInputSchema, output: SessionBodySchema },
  'logout.php': { auth: 'user', input: TokenInputSchema, output: MessageBodySchema },
  'forgot-password.php': { auth: 'none', input: ForgotPasswordInputSchema, output: MessageBodySchema },
  'reset-password.php': { auth: 'none', input: ResetPasswordInputSchema, output: MessageBodySchema },
  'tokenverify.php': { auth: 'user', input: TokenInputSchema, output: SessionBodySchema },
} as const satisfies CallTable;
