import { randomBytes } from 'node:crypto';
import type { OAuthStreamPlatform, StreamConnection } from '@meetcast/contracts';
import { and, asc, count, eq, lt, streamConnections, streamOauthStates, type ConnectionRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { AppError, badRequest, conflict, notFound } from '../http/app-error.js';
import { streamAddressPolicy } from './ingest-address.js';
import { NoChannelError, oauthPlatform, PLATFORM_LABELS, type OAuthPlatform } from './oauth-platforms.js';
import { isTransient, PlatformHttpError, PlatformShapeError } from './platform-http.js';
import { freshAccessToken } from './platform-tokens.js';
import { AddressRefusedError, checkSavedAddress } from '../platform/address-policy.js';
import { secretsBoxFor } from '../platform/secrets-box.js';
import { toEpochSeconds } from '../platform/time.js';
import { sha256 } from '../platform/hashing.js';

/** How long the consent screen may take before the state runs out. */
export const STATE_LIFETIME_MS = 10 * 60 * 1000;
/** Enough for every platform and address a person streams to; a bound on what one account can store. */
export const MAX_CONNECTIONS_PER_ACCOUNT = 50;

export function toConnectionDto(row: ConnectionRow): StreamConnection {
  return {
    id: row.id,
    platform: row.platform,
    name: row.name,
    status: row.status,
    created_at: toEpochSeconds(row.createdAt),
    rtmp_url: row.platform === 'rtmp' ? row.rtmpUrl : null,
    last_test_at: row.lastTestAt ? toEpochSeconds(row.lastTestAt) : null,
    last_test_result: row.lastTestResult,
    // The stored message key; the routes answer it translated (rtmp-destinations.ts).
    last_test_reason: row.lastTestReason,
    last_live_at: row.lastLiveAt ? toEpochSeconds(row.lastLiveAt) : null,
  };
}

export function requireOAuthPlatform(context: AppContext, platform: OAuthStreamPlatform): OAuthPlatform {
  const oauth = oauthPlatform(context.config.streaming, platform);
  if (!oauth) throw badRequest('stream_connections.not_configured', { platform: PLATFORM_LABELS[platform] });
  return oauth;
}

/** A platform failure during the consent flow, as a message the person can act on. */
export function explainPlatformFailure(context: AppContext, oauth: OAuthPlatform, error: unknown): unknown {
  if (error instanceof AppError) return error;
  const params = { platform: oauth.label };
  if (isTransient(error)) {
    context.log.warn({ err: error, platform: oauth.platform }, 'stream platform unavailable');
    return new AppError(502, 'stream_connections.platform_unavailable', params);
  }
  if (error instanceof PlatformShapeError) {
    context.log.error({ err: error, platform: oauth.platform }, 'stream platform answered in an unknown shape');
    return new AppError(502, 'stream_connections.platform_failed', params);
  }
  if (error instanceof PlatformHttpError) {
    context.log.error(
      { status: error.status, reason: error.reason, platform: oauth.platform },
      'stream platform refused',
    );
    return new AppError(502, 'stream_connections.platform_failed', params);
  }
  return error;
}

export async function listConnections(context: AppContext, userId: number): Promise<ConnectionRow[]> {
  return context.db
    .select()
    .from(streamConnections)
    .where(eq(streamConnections.userId, userId))
    .orderBy(asc(streamConnections.createdAt), asc(streamConnections.id));
}

/** The caller's connection; another account's, like a missing one, answers 404. */
export async function findOwnConnection(context: AppContext, userId: number, id: number): Promise<ConnectionRow> {
  const [row] = await context.db
    .select()
    .from(streamConnections)
    .where(and(eq(streamConnections.id, id), eq(streamConnections.userId, userId)));
  if (!row) throw notFound('stream_connections.not_found');
  return row;
}

async function requireRoomForOneMore(context: AppContext, userId: number) {
  const [row] = await context.db
    .select({ total: count() })
    .from(streamConnections)
    .where(eq(streamConnections.userId, userId));
  if ((row?.total ?? 0) >= MAX_CONNECTIONS_PER_ACCOUNT) {
    throw conflict('stream_connections.too_many', { count: MAX_CONNECTIONS_PER_ACCOUNT });
  }
}

/**
 * Begins the consent flow: a random state, stored as its hash and bound to the caller, goes to the
 * platform and comes back through /connect-stream. It starts with the platform's name so that the
 * page knows which platform answered (both share one registered redirect address).
 */
export async function startConnection(context: AppContext, userId: number, platform: OAuthStreamPlatform) {
  const oauth = requireOAuthPlatform(context, platform);
  await requireRoomForOneMore(context, userId);
  await context.db.delete(streamOauthStates).where(lt(streamOauthStates.expiresAt, new Date()));
  const state = `${platform}.${randomBytes(32).toString('base64url')}`;
  await context.db.insert(streamOauthStates).values({
    stateHash: sha256(state),
    userId,
    platform,
    expiresAt: new Date(Date.now() + STATE_LIFETIME_MS),
  });
  return { url: oauth.authorizationUrl(state), label: oauth.label };
}

export interface FinishInput {
  platform: OAuthStreamPlatform;
  state: string;
  code?: string | undefined;
  error?: string | undefined;
}

/** Takes the caller's state out of the table: each one works once, for its own account and platform. */
async function consumeState(context: AppContext, userId: number, input: FinishInput, label: string) {
  const [state] = await context.db
    .delete(streamOauthStates)
    .where(and(eq(streamOauthStates.stateHash, sha256(input.state)), eq(streamOauthStates.userId, userId)))
    .returning();
  if (!state || state.platform !== input.platform) {
    throw badRequest('stream_connections.state_invalid', { platform: label });
  }
  if (state.expiresAt.getTime() < Date.now()) throw badRequest('stream_connections.state_expired');
}

function explainCodeFailure(context: AppContext, oauth: OAuthPlatform, error: unknown): unknown {
  if (error instanceof PlatformHttpError && !isTransient(error)) {
    const params = { platform: oauth.label };
    const clientProblem = ['invalid_client', 'unauthorized_client', 'redirect_uri_mismatch'];
    if (error.status === 401 || error.status === 403 || clientProblem.includes(error.reason ?? '')) {
      context.log.error({ status: error.status, reason: error.reason, platform: oauth.platform }, 'client refused');
      return new AppError(502, 'stream_connections.client_refused', params);
    }
    // invalid_grant (Google), "Invalid authorization code" (Twitch): expired, used or foreign code.
    return badRequest('stream_connections.code_rejected', params);
  }
  return explainPlatformFailure(context, oauth, error);
}

/** Ends the consent flow: checks the state, trades the code for tokens, reads whose account it is, stores it. */
export async function finishConnection(context: AppContext, userId: number, input: FinishInput) {
  const oauth = requireOAuthPlatform(context, input.platform);
  const params = { platform: oauth.label };
  await consumeState(context, userId, input, oauth.label);
  if (input.error) throw badRequest('stream_connections.consent_refused', params);
  if (!input.code) throw badRequest('stream_connections.code_missing', params);

  const tokens = await oauth.exchangeCode(input.code).catch((error: unknown) => {
    throw explainCodeFailure(context, oauth, error);
  });
  if (!oauth.requiredScopes.every((scope) => tokens.scopes.includes(scope))) {
    // Google lets people untick a permission; without it no stream could start. Give the grant back.
    await oauth.revoke(tokens.accessToken).catch(() => undefined);
    throw badRequest('stream_connections.scope_missing', params);
  }
  const account = await oauth.account(tokens.accessToken).catch((error: unknown) => {
    if (error instanceof NoChannelError) return badRequest('stream_connections.youtube_no_channel');
    throw explainPlatformFailure(context, oauth, error);
  });
  if (account instanceof AppError) {
    // Nothing to stream to: give the grant back rather than keep a token nobody can use.
    await oauth.revoke(tokens.refreshToken ?? tokens.accessToken).catch(() => undefined);
    throw account;
  }

  const box = secretsBoxFor(context.config);
  const secrets = {
    name: account.name.slice(0, 200),
    status: 'connected' as const,
    accessTokenSealed: box.seal(tokens.accessToken),
    refreshTokenSealed: tokens.refreshToken ? box.seal(tokens.refreshToken) : null,
    tokenExpiresAt: tokens.expiresAt,
    // Twitch's validate call was part of reading the account.
    validatedAt: oauth.platform === 'twitch' ? new Date() : null,
  };
  // The same platform account connected again replaces its tokens instead of making a second row.
  const [existing] = await context.db
    .select({ id: streamConnections.id })
    .from(streamConnections)
    .where(
      and(
        eq(streamConnections.userId, userId),
        eq(streamConnections.platform, oauth.platform),
        eq(streamConnections.externalId, account.externalId),
      ),
    );
  if (!existing) await requireRoomForOneMore(context, userId);
  const [row] = existing
    ? await context.db
        .update(streamConnections)
        .set({ ...secrets, updatedAt: new Date() })
        .where(eq(streamConnections.id, existing.id))
        .returning()
    : await context.db
        .insert(streamConnections)
        .values({ userId, platform: oauth.platform, externalId: account.externalId, ...secrets })
        .returning();
  if (!row) throw new Error('stream connection was not stored');
  return { connection: toConnectionDto(row), label: oauth.label };
}

export async function addRtmpConnection(
  context: AppContext,
  userId: number,
  input: { name: string; url: string; stream_key: string },
): Promise<StreamConnection> {
  // The contract checks the scheme; an address also needs a server to push to (`rtmp://` alone has none).
  const url = new URL(input.url);
  if (!url.hostname) throw badRequest('stream_connections.rtmp_url_invalid');
  // Never a way into this machine or its network (docs/security.md "Outgoing connections"); checked
  // again, after resolving, each time a stream starts.
  await checkSavedAddress(url, streamAddressPolicy(context.config)).catch((error: unknown) => {
    throw error instanceof AddressRefusedError ? badRequest('stream_connections.rtmp_address_inside') : error;
  });
  await requireRoomForOneMore(context, userId);
  const [row] = await context.db
    .insert(streamConnections)
    .values({
      userId,
      platform: 'rtmp',
      name: input.name,
      rtmpUrl: input.url,
      streamKeySealed: secretsBoxFor(context.config).seal(input.stream_key),
    })
    .returning();
  if (!row) throw new Error('RTMP destination was not stored');
  return toConnectionDto(row);
}

/**
 * Google: the refresh token, whose revocation ends the whole grant. Twitch revokes access tokens,
 * and refuses an expired one, so it gets a fresh one first.
 */
async function tokenToRevoke(context: AppContext, row: ConnectionRow): Promise<string> {
  const box = secretsBoxFor(context.config);
  if (row.platform === 'youtube' && row.refreshTokenSealed) return box.open(row.refreshTokenSealed);
  if (row.platform === 'twitch') {
    const fresh = await freshAccessToken(context, row).catch(() => undefined);
    if (fresh) return fresh;
  }
  return box.open(row.accessTokenSealed ?? '');
}

/** Gives the grant back to the platform (a failure there is logged, not shown), then forgets the connection. */
export async function removeConnection(context: AppContext, userId: number, id: number): Promise<string> {
  const row = await findOwnConnection(context, userId, id);
  if (row.platform !== 'rtmp') {
    const oauth = oauthPlatform(context.config.streaming, row.platform);
    if (oauth && row.status !== 'revoked') {
      try {
        await oauth.revoke(await tokenToRevoke(context, row));
      } catch (error) {
        context.log.warn({ err: error, connectionId: row.id, platform: row.platform }, 'platform revocation failed');
      }
    }
  }
  await context.db
    .delete(streamConnections)
    .where(and(eq(streamConnections.id, row.id), eq(streamConnections.userId, userId)));
  return row.name;
}
