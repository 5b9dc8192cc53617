import { EXTERNAL_LOGIN_CALLBACK_PATH } from '@meetcast/contracts';
import { asc, eq, externalIdentities, users } from '@meetcast/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestMeta } from '../accounts/account-service.js';
import { toUserDto } from '../accounts/user-dto.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/app-error.js';
import { clearCookie, readCookie, setCookie, type CookieOptions } from '../http/cookies.js';
import { apiRoute, success } from '../http/api-route.js';
import { requestLanguage } from '../http/request-language.js';
import { type MessageKey } from '../i18n/messages.js';
import { RATE_LIMITS, enforceLimits } from '../platform/limits.js';
import { signInExternal } from './external-sign-in.js';
import { ATTEMPT_COOKIE, ATTEMPT_LIFETIME_SECONDS, consumeAttempt, createAttempt } from './login-attempts.js';
import { OidcProviderClient } from './provider-client.js';
import { toEpochSeconds } from '../platform/time.js';

const CALLBACK_CALL = 'meetcast-names-login.php';
const OUTCOME_MESSAGES = {
  signed_in: 'oidc.login_ok',
  linked: 'oidc.linked_ok',
  created: 'oidc.created_ok',
} as const satisfies Record<string, MessageKey>;

const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

function requestMeta(request: FastifyRequest): RequestMeta {
  return { ipAddress: request.ip, userAgent: request.headers['user-agent'], language: requestLanguage(request) };
}

/**
 * External sign-in through an OpenID Connect provider:
 * get-auth-config.php tells the web app whether to show the button, start-external-login.php
 * begins the code flow, meetcast-names-login.php finishes it, get-sign-in-methods.php lists what
 * a user can sign in with. docs/decisions/004-external-sign-in.md explains the choices.
 */
export function registerOidcRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'external sign-in';
  const settings = context.config.oidc;
  const provider = settings ? new OidcProviderClient(settings, context.config.publicUrl, context.log) : undefined;
  const cookieOptions: CookieOptions = {
    path: `/api/${CALLBACK_CALL}`,
    httpOnly: true,
    sameSite: 'lax',
    secure: context.config.publicUrl.startsWith('https:'),
  };

  function requireProvider() {
    if (!provider) throw new AppError(404, 'oidc.not_configured');
    return provider;
  }

  apiRoute(app, {
    name: 'get-auth-config.php',
    tag,
    summary: 'Public sign-in options: the external provider button, or null when none is configured',
    handler: async (_body, { t }) =>
      success(t('oidc.config_ok'), {
        oidc: provider ? { display_name: provider.displayName } : null,
      }),
  });

  apiRoute(app, {
    name: 'start-external-login.php',
    tag,
    summary: `Start the authorization code flow (PKCE, state, nonce); answers the provider address and sets a short-lived httpOnly cookie; the provider returns to ${EXTERNAL_LOGIN_CALLBACK_PATH}`,
    handler: async (_body, { request, reply, t }) => {
      const client = requireProvider();
      await enforceLimits(context, [[RATE_LIMITS.externalLoginByAddress, request.ip]]);
      const attempt = await createAttempt(context.db);
      const url = await client.authorizationUrl(attempt, requestLanguage(request));
      setCookie(reply, ATTEMPT_COOKIE, attempt.handle, { ...cookieOptions, maxAge: ATTEMPT_LIFETIME_SECONDS });
      return success(t('oidc.started', { provider: client.displayName }), { url });
    },
  });

  apiRoute(app, {
    name: CALLBACK_CALL,
    tag,
    summary:
      'Finish the external sign-in: `token` is the `code` of the provider redirect (also send its `state` and `iss`); links or creates the account and signs in',
    handler: async (body, { request, reply, t }) => {
      const client = requireProvider();
      await enforceLimits(context, [[RATE_LIMITS.externalLoginByAddress, request.ip]]);
      const attempt = await consumeAttempt(context.db, readCookie(request, ATTEMPT_COOKIE));
      clearAttemptCookie(reply);
      const params = { provider: client.displayName };
      if (!attempt) throw new AppError(400, 'oidc.attempt_missing', params);
      if (body.error) throw new AppError(400, 'oidc.cancelled', params);
      if (!body.token) throw new AppError(400, 'oidc.code_missing', params);
      if (body.state !== attempt.state) throw new AppError(400, 'oidc.state_mismatch', params);
      const profile = await client.exchange(
        { code: body.token, state: body.state, iss: body.iss, error: undefined },
        attempt,
      );
      const meta = requestMeta(request);
      const { user, outcome } = await signInExternal(context, client.settings, profile, meta);
      const token = await context.sessions.create(user.id, meta);
      return success(t(OUTCOME_MESSAGES[outcome], params), { token, data: toUserDto(user) });
    },
  });

  function clearAttemptCookie(reply: FastifyReply) {
    clearCookie(reply, ATTEMPT_COOKIE, cookieOptions);
  }

  apiRoute(app, {
    name: 'get-sign-in-methods.php',
    tag,
    summary: 'How the signed-in user can sign in: whether a password is set, and the linked external identities',
    handler: async (_body, { caller: { user }, t }) => {
      // Read afresh: the session cache may predate a password set a moment ago.
      const [fresh] = await context.db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, user.id));
      const rows = await context.db
        .select()
        .from(externalIdentities)
        .where(eq(externalIdentities.userId, user.id))
        .orderBy(asc(externalIdentities.createdAt));
      return success(t('oidc.methods_ok'), {
        data: {
          has_password: (fresh ?? user).passwordHash !== null,
          external: rows.map((row) => ({
            id: row.id,
            provider: settings && sameIssuer(row.issuer, settings.issuer) ? settings.displayName : row.issuer,
            email: row.email,
            created_at: toEpochSeconds(row.createdAt),
          })),
        },
      });
    },
  });
}
