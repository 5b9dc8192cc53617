import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiRoute, done, success } from '../http/api-route.js';
import { requestLanguage } from '../http/request-language.js';
import {
  confirmSignUp,
  logIn,
  requestPasswordReset,
  resendSignupCode,
  resetPassword,
  signUp,
  type RequestMeta,
} from './account-service.js';
import { knownDevice, rememberDevice } from './known-devices.js';
import { toUserDto } from './user-dto.js';
import type { AccountsContext } from './accounts-context.js';

function requestMeta(request: FastifyRequest): RequestMeta {
  return {
    ipAddress: request.ip,
    userAgent: request.headers['user-agent'],
    language: requestLanguage(request),
  };
}

export function registerAccountRoutes(app: FastifyInstance, context: AccountsContext) {
  const tag = 'accounts';

  apiRoute(app, {
    name: 'signup.php',
    tag,
    summary: 'Create an account; a 6-digit confirmation code is e-mailed',
    handler: async (body, { request, t }) => {
      await signUp(context, body, requestMeta(request));
      return done(t('accounts.signup_sent', { email: body.email }));
    },
  });

  apiRoute(app, {
    name: 'resend-signup-code.php',
    tag,
    summary: 'Send a new confirmation code to an address waiting for confirmation',
    handler: async (body, { request, t }) => {
      await resendSignupCode(context, body.email, requestMeta(request));
      return done(t('accounts.code_resent'));
    },
  });

  apiRoute(app, {
    name: 'confirm-signup.php',
    tag,
    summary: 'Confirm the e-mail address with its code and sign in',
    handler: async (body, { request, reply, t }) => {
      const session = await confirmSignUp(context, body, requestMeta(request));
      rememberDevice(context, request, reply, body.email);
      return success(t('accounts.confirmed'), session);
    },
  });

  apiRoute(app, {
    name: 'login.php',
    tag,
    summary:
      'Sign in with e-mail and password; a browser that signed in before (HttpOnly cookie) is exempt from the account-wide limit',
    handler: async (body, { request, reply, t }) => {
      const device = knownDevice(context, request, body.email);
      const session = await logIn(context, body, requestMeta(request), device);
      rememberDevice(context, request, reply, body.email);
      return success(t('accounts.login_ok'), session);
    },
  });

  apiRoute(app, {
    name: 'logout.php',
    tag,
    summary: 'Sign out; the token is revoked on the server',
    handler: async (_body, { caller: session, t }) => {
      await context.sessions.revokeToken(session.token);
      return done(t('accounts.logout_ok'));
    },
  });

  apiRoute(app, {
    name: 'forgot-password.php',
    tag,
    summary: 'Mail a password reset code; the answer is the same whether or not the account exists',
    handler: async (body, { request, t }) => {
      await requestPasswordReset(context, body.email, requestMeta(request));
      return done(t('accounts.forgot_sent', { email: body.email }));
    },
  });

  apiRoute(app, {
    name: 'reset-password.php',
    tag,
    summary:
      'Choose a new password with the mailed code; every session is signed out, and the sign-in limits of the account start again',
    handler: async (body, { request, reply, t }) => {
      await resetPassword(context, body, requestMeta(request));
      // Holding the mailbox proves as much as a sign-in: this browser is known to the account now.
      rememberDevice(context, request, reply, body.email);
      return done(t('accounts.reset_ok'));
    },
  });

  apiRoute(app, {
    name: 'tokenverify.php',
    tag,
    summary: 'Check a session token and return its user',
    handler: async (_body, { caller: session, t }) => {
      return success(t('accounts.token_ok'), {
        token: session.token,
        data: toUserDto(session.user),
      });
    },
  });
}
