import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError, badRequest } from '../http/app-error.js';
import { apiRoute, done, success } from '../http/api-route.js';
import { enforceLimits } from '../platform/limits.js';
import type { RateLimitRule } from '../platform/rate-limiter.js';
import {
  addRtmpConnection,
  findOwnConnection,
  finishConnection,
  listConnections,
  removeConnection,
  startConnection,
} from './connection-service.js';
import { DestinationError } from './destination-driver.js';
import { searchTwitchCategories } from './drivers/twitch.js';
import {
  editRtmpConnection,
  rememberLastLive,
  testRtmpConnection,
  toTranslatedConnection,
} from './rtmp-destinations.js';

/** Each start and finish reaches a platform; a person connects a few accounts, not hundreds. */
const CONNECT_BY_ACCOUNT: RateLimitRule = { name: 'stream-connect-account', limit: 30, windowSeconds: 600 };
/** Each test push holds a connection to a server and an ffmpeg for a few seconds. */
export const RTMP_TEST_BY_ACCOUNT: RateLimitRule = { name: 'rtmp-test-account', limit: 10, windowSeconds: 600 };
/** The category box searches as the host types. */
const CATEGORY_SEARCH_BY_ACCOUNT: RateLimitRule = { name: 'twitch-category-account', limit: 300, windowSeconds: 600 };

/** A driver-level failure answered to a person: retrying may help (502) or they must act (400). */
function asAppError(error: unknown): unknown {
  if (!(error instanceof DestinationError)) return error;
  return new AppError(error.retryable ? 502 : 400, error.key);
}

/**
 * Stream connections (described in /api/openapi.json): the accounts and RTMP addresses a person
 * streams to. Tokens and stream keys are stored sealed (secrets-box.ts) and never answered.
 */
export function registerStreamConnectionRoutes(app: FastifyInstance, context: AppContext) {
  const tag = 'streaming';
  rememberLastLive(context);

  apiRoute(app, {
    name: 'get-stream-connections.php',
    tag,
    summary: "The caller's stream connections (YouTube and Twitch accounts, RTMP addresses), without tokens or keys",
    handler: async (_body, { caller: { user }, t }) => {
      const rows = await listConnections(context, user.id);
      return success(t('stream_connections.list_ok'), { data: rows.map((row) => toTranslatedConnection(row, t)) });
    },
  });

  apiRoute(app, {
    name: 'start-stream-connection.php',
    tag,
    summary:
      "Start connecting a YouTube or Twitch account: answers the platform's consent address; the platform returns to /connect-stream with `code` and `state` (which starts with the platform's name)",
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[CONNECT_BY_ACCOUNT, String(user.id)]]);
      const { url, label } = await startConnection(context, user.id, body.platform);
      return success(t('stream_connections.started', { platform: label }), { url });
    },
  });

  apiRoute(app, {
    name: 'finish-stream-connection.php',
    tag,
    summary:
      'Finish connecting: the `code` and `state` (or `error`) of the redirect to /connect-stream; the state works once, for the account that started the flow, for 10 minutes',
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[CONNECT_BY_ACCOUNT, String(user.id)]]);
      const { connection, label } = await finishConnection(context, user.id, body);
      return success(t('stream_connections.connected', { name: connection.name, platform: label }), {
        data: connection,
      });
    },
  });

  apiRoute(app, {
    name: 'add-rtmp-destination.php',
    tag,
    summary:
      "Add a custom RTMP or RTMPS address with its stream key (stored encrypted, never answered); an address inside this server's networks (loopback, private, link-local, metadata) is refused unless RTMP_ALLOW_PRIVATE lists it",
    handler: async (body, { caller: { user }, t }) => {
      const connection = await addRtmpConnection(context, user.id, body);
      return success(t('stream_connections.rtmp_added', { name: connection.name }), {
        data: connection,
      });
    },
  });

  apiRoute(app, {
    name: 'edit-rtmp-destination.php',
    tag,
    summary:
      "Change a saved RTMP address's name, address and stream key, with the same checks as adding one; an empty or missing `stream_key` keeps the stored key (never answered). A new address or key clears the last test",
    handler: async (body, { caller: { user }, t }) => {
      const row = await editRtmpConnection(context, user.id, body);
      return success(t('stream_connections.rtmp_edited', { name: row.name }), {
        data: toTranslatedConnection(row, t),
      });
    },
  });

  apiRoute(app, {
    name: 'test-rtmp-destination.php',
    tag,
    summary:
      'Push a few seconds of a test pattern to a saved RTMP address, through the same outgoing address checks as going live, and store the result: `last_test_result` is `worked` or `failed` with a translated `last_test_reason` (nothing listening, refused, name taken, TLS, timeout). At most 10 tests per account in 10 minutes',
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[RTMP_TEST_BY_ACCOUNT, String(user.id)]]);
      const { row, outcome } = await testRtmpConnection(context, user.id, body.id);
      const message = outcome.worked
        ? t('stream_connections.test_worked', { name: row.name })
        : t('stream_connections.test_failed', { name: row.name, reason: t(outcome.reason) });
      return success(message, { data: toTranslatedConnection(row, t) });
    },
  });

  apiRoute(app, {
    name: 'remove-stream-connection.php',
    tag,
    summary: "Remove a stream connection; a platform account's grant is revoked at the platform first",
    handler: async (body, { caller: { user }, t }) => {
      const name = await removeConnection(context, user.id, body.id);
      return done(t('stream_connections.removed', { name }));
    },
  });

  apiRoute(app, {
    name: 'search-twitch-categories.php',
    tag,
    summary: "Twitch categories (games) whose name matches `query`, through the caller's Twitch connection",
    handler: async (body, { caller: { user }, t }) => {
      await enforceLimits(context, [[CATEGORY_SEARCH_BY_ACCOUNT, String(user.id)]]);
      const connection = await findOwnConnection(context, user.id, body.connection_id);
      if (connection.platform !== 'twitch') throw badRequest('stream_connections.not_twitch');
      const categories = await searchTwitchCategories(context, connection, body.query).catch((error: unknown) => {
        throw asAppError(error);
      });
      return success(t('stream_connections.categories_ok'), { data: categories });
    },
  });
}
