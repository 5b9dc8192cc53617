import { eq, streamConnections, type ConnectionRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import type { MessageKey } from '../i18n/messages.js';
import { DestinationError } from './destination-driver.js';
import { oauthPlatform, validateTwitchToken, type OAuthPlatform } from './oauth-platforms.js';
import type { z } from 'zod';
import {
  isTransient,
  platformCall,
  platformJson,
  platformUrl,
  PlatformHttpError,
  PlatformShapeError,
  type PlatformRequest,
} from './platform-http.js';
import { secretsBoxFor, SecretsUnreadableError } from '../platform/secrets-box.js';

/** A token this close to its expiry is refreshed before use, so no call fails half-way for it. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** Twitch: validate at first use and hourly after. */
const TWITCH_VALIDATION_INTERVAL_MS = 60 * 60 * 1000;

type OAuthConnection = ConnectionRow & { platform: 'youtube' | 'twitch' };

/** Refreshes in flight, per app and connection: two callers share one refresh (Twitch rotates the refresh token). */
const refreshes = new WeakMap<AppContext, Map<number, Promise<ConnectionRow>>>();

export const revokedKey = (platform: 'youtube' | 'twitch'): MessageKey => `stream_connections.${platform}_revoked`;

/**
 * What a failed platform call means for a destination: a server error or silence is worth retrying;
 * a withdrawn grant, a channel that cannot stream or a refused request is not.
 */
export function destinationErrorFor(platform: 'youtube' | 'twitch', error: unknown): DestinationError {
  if (error instanceof DestinationError) return error;
  if (error instanceof SecretsUnreadableError)
    return new DestinationError('stream_connections.secrets_unreadable', false);
  if (isTransient(error)) return new DestinationError(`stream_connections.${platform}_unavailable`, true);
  if (error instanceof PlatformHttpError) {
    if (error.reason === 'quotaExceeded' || error.reason === 'rateLimitExceeded') {
      return new DestinationError(`stream_connections.${platform}_unavailable`, true);
    }
    if (error.reason === 'liveStreamingNotEnabled') {
      return new DestinationError('stream_connections.youtube_live_not_enabled', false);
    }
    if (error.status === 401 || error.status === 403) return new DestinationError(revokedKey(platform), false);
    return new DestinationError(`stream_connections.${platform}_failed`, false);
  }
  if (error instanceof PlatformShapeError) return new DestinationError(`stream_connections.${platform}_failed`, false);
  throw error;
}

export async function setConnectionStatus(context: AppContext, id: number, status: ConnectionRow['status']) {
  await context.db.update(streamConnections).set({ status, updatedAt: new Date() }).where(eq(streamConnections.id, id));
}

async function readConnection(context: AppContext, id: number): Promise<ConnectionRow | undefined> {
  const [row] = await context.db.select().from(streamConnections).where(eq(streamConnections.id, id));
  return row;
}

/** The connection of a destination, usable: present, connected, and a platform this server still has a client for. */
export async function usableConnection(
  context: AppContext,
  connectionId: number | null,
): Promise<{ connection: ConnectionRow; oauth: OAuthPlatform | undefined }> {
  const connection = connectionId === null ? undefined : await readConnection(context, connectionId);
  if (!connection) throw new DestinationError('stream_connections.connection_missing', false);
  if (connection.platform === 'rtmp') return { connection, oauth: undefined };
  if (connection.status === 'revoked') throw new DestinationError(revokedKey(connection.platform), false);
  if (connection.status === 'expired') throw new DestinationError('stream_connections.connection_expired', false);
  const oauth = oauthPlatform(context.config.streaming, connection.platform);
  if (!oauth) throw new DestinationError('stream_connections.platform_removed', false);
  return { connection, oauth };
}

function oauthOf(context: AppContext, connection: ConnectionRow): { row: OAuthConnection; oauth: OAuthPlatform } {
  if (connection.platform === 'rtmp') throw new Error('an RTMP address has no tokens');
  const oauth = oauthPlatform(context.config.streaming, connection.platform);
  if (!oauth) throw new DestinationError('stream_connections.platform_removed', false);
  return { row: connection as OAuthConnection, oauth };
}

async function refreshNow(context: AppContext, stale: ConnectionRow): Promise<ConnectionRow> {
  // The row as it is now: the caller's copy may hold a refresh token Twitch has rotated since.
  const { row, oauth } = oauthOf(context, (await readConnection(context, stale.id)) ?? stale);
  if (row.status === 'revoked') throw new DestinationError(revokedKey(row.platform), false);
  const box = secretsBoxFor(context.config);
  const usedRefreshToken = row.refreshTokenSealed;
  if (!usedRefreshToken) {
    await setConnectionStatus(context, row.id, 'expired');
    throw new DestinationError('stream_connections.connection_expired', false);
  }
  try {
    const tokens = await oauth.refresh(box.open(usedRefreshToken));
    const [updated] = await context.db
      .update(streamConnections)
      .set({
        accessTokenSealed: box.seal(tokens.accessToken),
        // Twitch hands out a new refresh token with each refresh; Google keeps the first one.
        ...(tokens.refreshToken ? { refreshTokenSealed: box.seal(tokens.refreshToken) } : {}),
        tokenExpiresAt: tokens.expiresAt,
        status: 'connected',
        updatedAt: new Date(),
      })
      .where(eq(streamConnections.id, row.id))
      .returning();
    if (!updated) throw new DestinationError('stream_connections.connection_missing', false);
    return updated;
  } catch (error) {
    const refused =
      error instanceof PlatformHttpError &&
      (error.status === 400 || error.status === 401) &&
      error.reason !== 'invalid_client';
    if (!refused) throw destinationErrorFor(row.platform, error);
    // Another server process may have rotated the refresh token a moment ago: then its tokens are good.
    const current = await readConnection(context, row.id);
    if (current && current.status === 'connected' && current.refreshTokenSealed !== usedRefreshToken) return current;
    context.log.warn(
      { connectionId: row.id, platform: row.platform, reason: error.reason },
      'stream connection revoked',
    );
    await setConnectionStatus(context, row.id, 'revoked');
    throw new DestinationError(revokedKey(row.platform), false);
  }
}

/** One refresh per connection at a time in this process; the callers all get its result. */
function refreshShared(context: AppContext, stale: ConnectionRow): Promise<ConnectionRow> {
  let inFlight = refreshes.get(context);
  if (!inFlight) refreshes.set(context, (inFlight = new Map()));
  const running = inFlight.get(stale.id);
  if (running) return running;
  const started = refreshNow(context, stale).finally(() => inFlight.delete(stale.id));
  inFlight.set(stale.id, started);
  return started;
}

const needsRefresh = (row: ConnectionRow) =>
  row.tokenExpiresAt !== null && row.tokenExpiresAt.getTime() - Date.now() < REFRESH_MARGIN_MS;

async function validateTwitch(context: AppContext, row: ConnectionRow, accessToken: string): Promise<boolean> {
  try {
    await validateTwitchToken(context.config.streaming, accessToken);
  } catch (error) {
    if (error instanceof PlatformHttpError && error.status === 401) return false;
    throw destinationErrorFor('twitch', error);
  }
  await context.db.update(streamConnections).set({ validatedAt: new Date() }).where(eq(streamConnections.id, row.id));
  return true;
}

/**
 * An access token good for at least the next few minutes: refreshed when it is close to expiry (or
 * when `force` says the platform just refused it), Twitch's validated at first use and hourly.
 * A grant the platform refuses marks the connection revoked and throws a non-retryable DestinationError.
 */
export async function freshAccessToken(
  context: AppContext,
  connection: ConnectionRow,
  options: { force?: boolean } = {},
): Promise<string> {
  const box = secretsBoxFor(context.config);
  const { row } = oauthOf(context, connection);
  // The row as stored now: the caller's copy goes stale as soon as any call refreshed the tokens.
  let current: ConnectionRow = (await readConnection(context, row.id)) ?? row;
  try {
    if (current.status === 'revoked') throw new DestinationError(revokedKey(row.platform), false);
    if (options.force || needsRefresh(current) || !current.accessTokenSealed) {
      current = await refreshShared(context, current);
    }
    let accessToken = box.open(current.accessTokenSealed ?? '');
    const lastValidated = current.validatedAt?.getTime() ?? 0;
    if (row.platform === 'twitch' && Date.now() - lastValidated >= TWITCH_VALIDATION_INTERVAL_MS) {
      if (!(await validateTwitch(context, current, accessToken))) {
        // Refused: one refresh (the token may have ended early); a refused refresh means revoked.
        current = await refreshShared(context, current);
        accessToken = box.open(current.accessTokenSealed ?? '');
        if (!(await validateTwitch(context, current, accessToken))) {
          await setConnectionStatus(context, row.id, 'revoked');
          throw new DestinationError(revokedKey('twitch'), false);
        }
      }
    }
    return accessToken;
  } catch (error) {
    throw destinationErrorFor(row.platform, error);
  }
}

/**
 * Runs one platform call with a fresh token. A 401 gets one forced refresh and one more try; a second
 * 401 marks the connection revoked. Every failure comes out as a DestinationError.
 */
export async function withAccessToken<T>(
  context: AppContext,
  connection: ConnectionRow,
  call: (accessToken: string, clientId: string) => Promise<T>,
): Promise<T> {
  const { row, oauth } = oauthOf(context, connection);
  const clientId = oauth.client.clientId;
  try {
    return await call(await freshAccessToken(context, row), clientId);
  } catch (error) {
    if (!(error instanceof PlatformHttpError && error.status === 401)) throw destinationErrorFor(row.platform, error);
  }
  const latest = (await readConnection(context, row.id)) ?? row;
  try {
    return await call(await freshAccessToken(context, latest, { force: true }), clientId);
  } catch (error) {
    if (error instanceof PlatformHttpError && error.status === 401) {
      context.log.warn({ connectionId: row.id, platform: row.platform }, 'platform refused a fresh token: revoked');
      await setConnectionStatus(context, row.id, 'revoked');
    }
    throw destinationErrorFor(row.platform, error);
  }
}

type Query = Record<string, string | undefined>;

/** The connection's platform API (YouTube's Data API, Twitch's Helix) at `path`, called with its token. */
function withPlatformApi<T>(
  context: AppContext,
  connection: ConnectionRow,
  path: string,
  query: Query,
  send: (url: string, headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  const { youtubeApiUrl, twitchApiUrl } = context.config.streaming;
  const isTwitch = connection.platform === 'twitch';
  const url = platformUrl(isTwitch ? twitchApiUrl : youtubeApiUrl, path, query);
  // Helix wants the app's client id beside the token; the Data API the token alone.
  return withAccessToken(context, connection, (accessToken, clientId) =>
    send(url, { authorization: `Bearer ${accessToken}`, ...(isTwitch ? { 'client-id': clientId } : {}) }),
  );
}

/** A call to the connection's platform API with its token (refreshed, validated, retried once on 401). */
export function callPlatformApi(
  context: AppContext,
  connection: ConnectionRow,
  path: string,
  query: Query = {},
  request: PlatformRequest = {},
): Promise<unknown> {
  return withPlatformApi(context, connection, path, query, (url, headers) =>
    platformCall(url, { ...request, headers }),
  );
}

/** callPlatformApi, its answer read through `schema`. */
export function platformApiJson<Schema extends z.ZodType>(
  context: AppContext,
  connection: ConnectionRow,
  schema: Schema,
  path: string,
  query: Query = {},
  request: PlatformRequest = {},
): Promise<z.infer<Schema>> {
  return withPlatformApi(context, connection, path, query, (url, headers) =>
    platformJson(schema, url, { ...request, headers }),
  );
}
