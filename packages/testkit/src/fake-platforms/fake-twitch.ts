import {
  bearer,
  consentPage,
  FailureSwitch,
  OAuthStore,
  randomId,
  startFakeServer,
  type FakeReply,
  type FakeRequest,
} from './fake-oauth.js';
import { CHATTER_AVATAR_PATH, chatterAvatar, FakeTwitchEventSub } from './fake-twitch-chat.js';

/**
 * Twitch's OAuth endpoints (id.twitch.tv/oauth2: authorize, token, validate, revoke), the Helix
 * calls Meetcast uses (users, streams/key, channels, search/categories, streams) and the ingest
 * list, on one loopback port. Shapes, status codes and error bodies follow Twitch's documentation.
 */

export interface FakeTwitchUser {
  id: string;
  login: string;
  display_name: string;
}

export interface FakeTwitchOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** The ingest's `url_template` is `${ingestBase}/{stream_key}`; tests point it at a local RTMP receiver. */
  ingestBase?: string;
  /** Seconds an access token lives (Twitch: about four hours). Short values test refreshing. */
  accessTokenLifetimeSeconds?: number;
  codeLifetimeSeconds?: number;
  /** Each refresh hands out a new refresh token and retires the old one. Default: true. */
  rotateRefreshTokens?: boolean;
  /** The account that consents. */
  user?: FakeTwitchUser;
  /** Whether the channel is live (listed by GET /streams) for a stream key. Default: always. */
  isStreamActive?: (streamKey: string) => boolean | Promise<boolean>;
  viewerCount?: number;
}

export interface FakeTwitchChannel {
  broadcaster_id: string;
  title: string;
  game_id: string;
  game_name: string;
}

export interface FakeTwitch {
  url: string;
  client: { id: string; secret: string };
  /** TWITCH_* values for the test server (client included). */
  env: Record<string, string>;
  user: FakeTwitchUser;
  viewerCount: number;
  rotateRefreshTokens: boolean;
  isStreamActive: (streamKey: string) => boolean | Promise<boolean>;
  oauth: OAuthStore;
  /** Channel information as the last PATCH /channels left it, by broadcaster id. */
  channels: Map<string, FakeTwitchChannel>;
  /** The stream key of a broadcaster (made on first request). */
  streamKeyOf(broadcasterId: string): string;
  categories: { id: string; name: string }[];
  /** Successful GET /oauth2/validate calls. */
  readonly validations: number;
  requests: string[];
  /** The next `count` calls (every endpoint but the consent page) answer `status`, after `after` answered ones. */
  failNext(count: number, status?: number, after?: number): void;
  revokeAll(): void;
  /** EventSub over WebSocket: `eventSub.say(broadcasterId, chatter, text)` writes in a channel's chat. */
  eventSub: FakeTwitchEventSub;
  close(): Promise<void>;
}

/** A few of Twitch's real categories (ids as Twitch has them). */
export const FAKE_TWITCH_CATEGORIES = [
  { id: '509658', name: 'Just Chatting' },
  { id: '509670', name: 'Science & Technology' },
  { id: '1469308723', name: 'Software and Game Development' },
  { id: '26936', name: 'Music' },
  { id: '509660', name: 'Art' },
  { id: '509673', name: 'Makers & Crafting' },
  { id: '417752', name: 'Talk Shows & Podcasts' },
];

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

const helixError = (status: number, message: string): FakeReply => ({
  status,
  json: { error: STATUS_TEXT[status] ?? 'Error', status, message },
});
/** id.twitch.tv answers errors without the `error` word. */
const oauthError = (status: number, message: string): FakeReply => ({ status, json: { status, message } });

export async function startFakeTwitch(options: FakeTwitchOptions = {}): Promise<FakeTwitch> {
  const client = { id: options.clientId ?? 'faketwitchclientid', secret: options.clientSecret ?? 'faketwitchsecret' };
  const oauth = new OAuthStore({
    accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds ?? 14_400,
    codeLifetimeSeconds: options.codeLifetimeSeconds ?? 60,
  });
  const failures = new FailureSwitch();
  const requests: string[] = [];
  const channels = new Map<string, FakeTwitchChannel>();
  const streamKeys = new Map<string, string>();
  const ingestBase = (options.ingestBase ?? 'rtmp://127.0.0.1:1935/app').replace(/\/+$/, '');
  let validations = 0;

  const state = {
    user: options.user ?? {
      id: String(100_000_000 + Math.floor(Math.random() * 1e8)),
      login: 'meetcast_tester',
      display_name: 'Meetcast_Tester',
    },
    viewerCount: options.viewerCount ?? 3,
    rotateRefreshTokens: options.rotateRefreshTokens ?? true,
    isStreamActive: options.isStreamActive ?? (() => true),
  };
  const users = new Map<string, FakeTwitchUser>();
  const streamKeyOf = (broadcasterId: string) => {
    let key = streamKeys.get(broadcasterId);
    if (!key) streamKeys.set(broadcasterId, (key = `live_${broadcasterId}_${randomId(20)}`));
    return key;
  };

  const authorize = (request: FakeRequest): FakeReply => {
    const query = request.url.searchParams;
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    if (clientId !== client.id) return { status: 400, html: '<h1>invalid client</h1>' };
    if (!/^https?:\/\//.test(redirectUri)) return { status: 400, html: '<h1>redirect mismatch</h1>' };
    if (query.get('response_type') !== 'code') return { status: 400, html: '<h1>unsupported response type</h1>' };
    const scopes = (query.get('scope') ?? '').split(' ').filter(Boolean);
    const requestId = oauth.startConsent({ clientId, redirectUri, state: query.get('state') ?? undefined, scopes });
    return {
      status: 200,
      html: consentPage({
        platform: 'Twitch',
        account: state.user.display_name,
        scopes,
        decideUrl: `${server.url}/oauth2/authorize/decide`,
        requestId,
      }),
    };
  };

  const decide = (request: FakeRequest): FakeReply => {
    const allow = request.url.searchParams.get('decision') === 'allow';
    users.set(state.user.id, { ...state.user });
    const location = oauth.decide(request.url.searchParams.get('request') ?? '', allow, state.user.id, {
      error_description: 'The user denied you access',
    });
    return location ? { status: 302, location } : { status: 400, html: '<h1>This authorization has expired.</h1>' };
  };

  const token = (request: FakeRequest): FakeReply => {
    const form = request.form;
    if (form.client_id !== client.id) return oauthError(400, 'invalid client');
    if (form.client_secret !== client.secret) return oauthError(403, 'invalid client secret');
    if (form.grant_type === 'authorization_code') {
      const issued = oauth.redeemCode(form.code ?? '', client.id, form.redirect_uri);
      if (issued === 'redirect') return oauthError(400, 'Parameter redirect_uri does not match registered URI');
      if (issued === 'invalid') return oauthError(400, 'Invalid authorization code');
      return {
        status: 200,
        json: {
          access_token: issued.accessToken,
          expires_in: issued.expiresIn,
          refresh_token: issued.refreshToken,
          scope: issued.grant.scopes,
          token_type: 'bearer',
        },
      };
    }
    if (form.grant_type === 'refresh_token') {
      const issued = oauth.refresh(form.refresh_token ?? '', client.id, state.rotateRefreshTokens);
      if (!issued) return helixError(400, 'Invalid refresh token');
      return {
        status: 200,
        json: {
          access_token: issued.accessToken,
          refresh_token: issued.refreshToken,
          expires_in: issued.expiresIn,
          scope: issued.grant.scopes,
          token_type: 'bearer',
        },
      };
    }
    return oauthError(400, 'unsupported grant type');
  };

  const validate = (request: FakeRequest): FakeReply => {
    const access = oauth.lookup(bearer(request, 'OAuth'));
    if (!access) return oauthError(401, 'invalid access token');
    validations += 1;
    const user = users.get(access.grant.subject);
    return {
      status: 200,
      json: {
        client_id: access.grant.clientId,
        login: user?.login ?? '',
        scopes: access.grant.scopes,
        user_id: access.grant.subject,
        expires_in: access.expiresIn,
      },
    };
  };

  const revoke = (request: FakeRequest): FakeReply => {
    const outcome = oauth.revokeToken(request.form.token ?? '', request.form.client_id ?? '');
    if (outcome === 'client') return oauthError(404, 'client does not exist');
    if (outcome === 'unknown') return oauthError(400, 'Invalid token');
    return { status: 200 };
  };

  const helix = async (request: FakeRequest, path: string): Promise<FakeReply> => {
    const access = oauth.lookup(bearer(request));
    if (!access) return helixError(401, 'Invalid OAuth token');
    if (request.headers['client-id'] !== access.grant.clientId) {
      return helixError(401, 'Client ID and OAuth token do not match');
    }
    const userId = access.grant.subject;
    const query = request.url.searchParams;
    const needs = (scope: string) =>
      access.grant.scopes.includes(scope) ? undefined : helixError(401, `Missing scope: ${scope}`);
    const key = `${request.method} ${path}`;
    const chat = eventSub.helix(request, key, { userId, scopes: access.grant.scopes }, server.url);
    if (chat) return chat;
    if (key === 'GET /users') {
      const user = users.get(userId);
      return {
        status: 200,
        json: { data: user ? [{ ...user, type: '', broadcaster_type: '', description: '' }] : [] },
      };
    }
    if (key === 'GET /streams/key') {
      if (query.get('broadcaster_id') !== userId)
        return helixError(403, "The ID in broadcaster_id must match the user ID found in the request's OAuth token.");
      return needs('channel:read:stream_key') ?? { status: 200, json: { data: [{ stream_key: streamKeyOf(userId) }] } };
    }
    if (key === 'PATCH /channels') {
      const missing = needs('channel:manage:broadcast');
      if (missing) return missing;
      if (query.get('broadcaster_id') !== userId)
        return helixError(403, "The ID in broadcaster_id must match the user ID found in the request's OAuth token.");
      const body = (request.json ?? {}) as { title?: unknown; game_id?: unknown };
      const channel = channels.get(userId) ?? { broadcaster_id: userId, title: '', game_id: '', game_name: '' };
      if (body.title !== undefined) {
        if (typeof body.title !== 'string' || body.title.trim() === '')
          return helixError(400, 'The title field may not contain an empty string.');
        channel.title = body.title;
      }
      if (body.game_id !== undefined) {
        const category = FAKE_TWITCH_CATEGORIES.find((entry) => entry.id === body.game_id);
        if (!category && body.game_id !== '0' && body.game_id !== '')
          return helixError(400, 'The ID in game_id is not valid.');
        channel.game_id = category?.id ?? '';
        channel.game_name = category?.name ?? '';
      }
      channels.set(userId, channel);
      return { status: 204 };
    }
    if (key === 'GET /search/categories') {
      const text = (query.get('query') ?? '').toLowerCase();
      if (!text) return helixError(400, 'Missing required parameter "query"');
      const first = Math.min(100, Number(query.get('first') ?? 20) || 20);
      const found = FAKE_TWITCH_CATEGORIES.filter((entry) => entry.name.toLowerCase().includes(text)).slice(0, first);
      return {
        status: 200,
        json: {
          data: found.map((entry) => ({ ...entry, box_art_url: `${server.url}/box-art/${entry.id}-52x72.jpg` })),
          pagination: {},
        },
      };
    }
    if (key === 'GET /streams') {
      const listed = query.getAll('user_id');
      const live = [];
      for (const id of listed) {
        const streamKey = streamKeys.get(id);
        if (!streamKey || !(await state.isStreamActive(streamKey))) continue;
        const user = users.get(id);
        const channel = channels.get(id);
        live.push({
          id: `${id}0001`,
          user_id: id,
          user_login: user?.login ?? '',
          user_name: user?.display_name ?? '',
          game_id: channel?.game_id ?? '',
          game_name: channel?.game_name ?? '',
          type: 'live',
          title: channel?.title ?? '',
          viewer_count: state.viewerCount,
          started_at: new Date().toISOString(),
          language: 'en',
          tags: [],
          is_mature: false,
        });
      }
      return { status: 200, json: { data: live, pagination: {} } };
    }
    return helixError(404, 'Not Found');
  };

  const eventSub = await FakeTwitchEventSub.start();
  const server = await startFakeServer(async (request) => {
    const path = request.url.pathname;
    requests.push(`${request.method} ${path}`);
    if (request.method === 'GET' && path.startsWith(CHATTER_AVATAR_PATH)) return chatterAvatar();
    if (request.method === 'GET' && path === '/oauth2/authorize') return authorize(request);
    if (request.method === 'GET' && path === '/oauth2/authorize/decide') return decide(request);
    const failure = failures.take();
    if (failure) return helixError(failure, '');
    if (request.method === 'POST' && path === '/oauth2/token') return token(request);
    if (request.method === 'GET' && path === '/oauth2/validate') return validate(request);
    if (request.method === 'POST' && path === '/oauth2/revoke') return revoke(request);
    if (request.method === 'GET' && path === '/ingests') {
      return {
        status: 200,
        json: {
          ingests: [
            {
              _id: 1,
              availability: 1,
              default: true,
              id: 1,
              name: 'Local test ingest',
              priority: 0,
              url_template: `${ingestBase}/{stream_key}`,
              url_template_secure: `${ingestBase.replace(/^rtmp:/, 'rtmps:')}/{stream_key}`,
            },
          ],
        },
      };
    }
    if (path.startsWith('/helix/')) return helix(request, path.slice('/helix'.length));
    return helixError(404, 'Not Found');
  }, options.port);

  return {
    url: server.url,
    client,
    env: {
      TWITCH_OAUTH_URL: `${server.url}/oauth2`,
      TWITCH_API_URL: `${server.url}/helix`,
      TWITCH_INGEST_URL: `${server.url}/ingests`,
      TWITCH_EVENTSUB_URL: eventSub.url,
      TWITCH_CLIENT_ID: client.id,
      TWITCH_CLIENT_SECRET: client.secret,
    },
    get user() {
      return state.user;
    },
    set user(value) {
      state.user = value;
    },
    get viewerCount() {
      return state.viewerCount;
    },
    set viewerCount(value) {
      state.viewerCount = value;
    },
    get rotateRefreshTokens() {
      return state.rotateRefreshTokens;
    },
    set rotateRefreshTokens(value) {
      state.rotateRefreshTokens = value;
    },
    get isStreamActive() {
      return state.isStreamActive;
    },
    set isStreamActive(value) {
      state.isStreamActive = value;
    },
    oauth,
    channels,
    streamKeyOf,
    categories: FAKE_TWITCH_CATEGORIES,
    get validations() {
      return validations;
    },
    requests,
    failNext: (count, status, after) => failures.failNext(count, status, after),
    revokeAll: () => oauth.revokeAll(),
    eventSub,
    close: async () => {
      await eventSub.close();
      await server.close();
    },
  };
}
