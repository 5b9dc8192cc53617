import type { OAuthStreamPlatform } from '@meetcast/contracts';
import { z } from 'zod';
import type { PlatformClient, StreamingConfig } from '../env.js';
import { platformCall, platformJson, platformUrl } from './platform-http.js';

/** What the spec asks of each platform (product spec section 9). */
export const YOUTUBE_SCOPES = ['https://www.googleapis.com/auth/youtube.force-ssl'];
export const TWITCH_SCOPES = ['channel:manage:broadcast', 'channel:read:stream_key', 'user:read:chat'];

export const PLATFORM_LABELS = { youtube: 'YouTube', twitch: 'Twitch', rtmp: 'RTMP' } as const;

export interface TokenSet {
  accessToken: string;
  /** Absent when the platform keeps the one it gave before (Google's refresh answers). */
  refreshToken: string | undefined;
  expiresAt: Date | null;
  scopes: string[];
}

export interface PlatformAccount {
  externalId: string;
  name: string;
}

/** The OAuth side of one platform: consent address, code and refresh grants, revocation, whose account. */
export interface OAuthPlatform {
  platform: OAuthStreamPlatform;
  label: string;
  client: PlatformClient;
  requiredScopes: string[];
  authorizationUrl(state: string): string;
  exchangeCode(code: string): Promise<TokenSet>;
  refresh(refreshToken: string): Promise<TokenSet>;
  revoke(token: string): Promise<void>;
  account(accessToken: string): Promise<PlatformAccount>;
}

const expiryFrom = (seconds: number | undefined) =>
  seconds !== undefined && seconds > 0 ? new Date(Date.now() + seconds * 1000) : null;

// Google: `scope` is one space-separated string; Twitch: an array.
const GoogleTokenSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().default(''),
});
const TwitchTokenSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.array(z.string()).default([]),
});
const YouTubeChannelsSchema = z.object({
  items: z.array(z.object({ id: z.string(), snippet: z.object({ title: z.string() }) })).default([]),
});
export const TwitchValidationSchema = z.object({
  client_id: z.string(),
  login: z.string().optional(),
  user_id: z.string().optional(),
  scopes: z.array(z.string()).nullable().default([]),
  expires_in: z.number().optional(),
});
const TwitchUsersSchema = z.object({
  data: z.array(z.object({ id: z.string(), login: z.string(), display_name: z.string().default('') })),
});

/** The YouTube account has no channel: nothing to stream to. */
export class NoChannelError extends Error {}

function youtube(config: StreamingConfig, client: PlatformClient): OAuthPlatform {
  const tokenCall = async (form: Record<string, string>): Promise<TokenSet> => {
    const answer = await platformJson(GoogleTokenSchema, config.googleTokenUrl, {
      form: { client_id: client.clientId, client_secret: client.clientSecret, ...form },
    });
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token,
      expiresAt: expiryFrom(answer.expires_in),
      scopes: answer.scope.split(' ').filter(Boolean),
    };
  };
  return {
    platform: 'youtube',
    label: PLATFORM_LABELS.youtube,
    client,
    requiredScopes: YOUTUBE_SCOPES,
    authorizationUrl: (state) =>
      platformUrl(config.googleAuthUrl, '', {
        client_id: client.clientId,
        redirect_uri: config.connectStreamUrl,
        response_type: 'code',
        scope: YOUTUBE_SCOPES.join(' '),
        // A refresh token comes only with offline access and the consent screen shown again.
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        state,
      }),
    exchangeCode: (code) =>
      tokenCall({ code, grant_type: 'authorization_code', redirect_uri: config.connectStreamUrl }),
    refresh: (refreshToken) => tokenCall({ refresh_token: refreshToken, grant_type: 'refresh_token' }),
    revoke: async (token) => {
      await platformCall(platformUrl(config.googleRevokeUrl, '', { token }), { method: 'POST', form: {} });
    },
    account: async (accessToken) => {
      const answer = await platformJson(
        YouTubeChannelsSchema,
        platformUrl(config.youtubeApiUrl, '/channels', { part: 'snippet', mine: 'true' }),
        { headers: { authorization: `Bearer ${accessToken}` } },
      );
      const channel = answer.items[0];
      if (!channel) throw new NoChannelError();
      return { externalId: channel.id, name: channel.snippet.title };
    },
  };
}

function twitch(config: StreamingConfig, client: PlatformClient): OAuthPlatform {
  const tokenCall = async (form: Record<string, string>): Promise<TokenSet> => {
    const answer = await platformJson(TwitchTokenSchema, `${config.twitchOAuthUrl}/token`, {
      form: { client_id: client.clientId, client_secret: client.clientSecret, ...form },
    });
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token,
      expiresAt: expiryFrom(answer.expires_in),
      scopes: answer.scope,
    };
  };
  return {
    platform: 'twitch',
    label: PLATFORM_LABELS.twitch,
    client,
    requiredScopes: TWITCH_SCOPES,
    authorizationUrl: (state) =>
      platformUrl(config.twitchOAuthUrl, '/authorize', {
        client_id: client.clientId,
        redirect_uri: config.connectStreamUrl,
        response_type: 'code',
        scope: TWITCH_SCOPES.join(' '),
        state,
      }),
    exchangeCode: (code) =>
      tokenCall({ code, grant_type: 'authorization_code', redirect_uri: config.connectStreamUrl }),
    refresh: (refreshToken) => tokenCall({ refresh_token: refreshToken, grant_type: 'refresh_token' }),
    revoke: async (token) => {
      await platformCall(`${config.twitchOAuthUrl}/revoke`, { form: { client_id: client.clientId, token } });
    },
    account: async (accessToken) => {
      const validation = await validateTwitchToken(config, accessToken);
      const users = await platformJson(TwitchUsersSchema, `${config.twitchApiUrl}/users`, {
        headers: { authorization: `Bearer ${accessToken}`, 'client-id': client.clientId },
      });
      const user = users.data.find((entry) => entry.id === validation.user_id) ?? users.data[0];
      if (!user) throw new NoChannelError();
      return { externalId: user.id, name: user.display_name || user.login };
    },
  };
}

/** Twitch asks apps to validate a user token when they start using it and every hour after. */
export function validateTwitchToken(config: StreamingConfig, accessToken: string) {
  return platformJson(TwitchValidationSchema, `${config.twitchOAuthUrl}/validate`, {
    headers: { authorization: `OAuth ${accessToken}` },
  });
}

/** The platform's OAuth client, or undefined when this installation has no client for it. */
export function oauthPlatform(config: StreamingConfig, platform: OAuthStreamPlatform): OAuthPlatform | undefined {
  if (platform === 'youtube') return config.youtube ? youtube(config, config.youtube) : undefined;
  return config.twitch ? twitch(config, config.twitch) : undefined;
}
