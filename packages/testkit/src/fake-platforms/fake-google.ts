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
import { FakeYouTubeLive, youtubeError, type FakeBroadcast, type FakeStream } from './fake-youtube-live.js';
import { FAKE_AVATAR_PNG, FakeYouTubeChat } from './fake-youtube-chat.js';

export type { FakeBroadcast, FakeStream } from './fake-youtube-live.js';

/**
 * Google's OAuth 2.0 endpoints and the part of the YouTube Data API v3 Meetcast uses (channels,
 * liveBroadcasts insert/list/bind/transition, liveStreams insert/list), on a loopback port, for
 * the API and end-to-end tests. Shapes, status codes and error reasons follow Google's documentation.
 */

export const YOUTUBE_SCOPE = 'https://www.googleapis.com/auth/youtube.force-ssl';

export interface FakeGoogleOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** Where liveStreams say to push (`ingestionAddress`); tests point it at a local RTMP receiver. */
  ingestBase?: string;
  /** Whether YouTube "receives" the stream of this name (`streamStatus: active`). Default: always. */
  isStreamActive?: (streamName: string) => boolean | Promise<boolean>;
  /** Seconds an access token lives (Google: 3599). Short values test refreshing. */
  accessTokenLifetimeSeconds?: number;
  /** Seconds an authorization code lives. */
  codeLifetimeSeconds?: number;
  /** The channel of the account that consents; null: a Google account without a YouTube channel. */
  channel?: { id: string; title: string } | null;
  /** False: the channel cannot stream (liveBroadcasts.insert answers 403 liveStreamingNotEnabled). */
  liveStreamingEnabled?: boolean;
}

export interface FakeGoogle {
  url: string;
  client: { id: string; secret: string };
  /** GOOGLE_* and YOUTUBE_* values for the test server (client included). */
  env: Record<string, string>;
  /** The channel the next consent is given with; change it to connect "another" account. */
  channel: { id: string; title: string } | null;
  liveStreamingEnabled: boolean;
  isStreamActive: (streamName: string) => boolean | Promise<boolean>;
  oauth: OAuthStore;
  broadcasts(): FakeBroadcast[];
  streams(): FakeStream[];
  /** liveBroadcasts.insert calls that made a broadcast. */
  readonly insertedBroadcasts: number;
  /** Every request as `METHOD /path`, in order. */
  requests: string[];
  /** The next `count` calls (every endpoint but the consent page) answer `status`, after `after` answered ones. */
  failNext(count: number, status?: number, after?: number): void;
  revokeAll(): void;
  /** Live chat: `chat.say(FakeYouTubeChat.chatIdOf(broadcastId), author, text)`. */
  chat: FakeYouTubeChat;
  close(): Promise<void>;
}

const unauthenticated = () =>
  youtubeError(
    401,
    'authError',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    'global',
  );

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const client = { id: options.clientId ?? 'fake-google-client', secret: options.clientSecret ?? 'fake-google-secret' };
  const oauth = new OAuthStore({
    accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds ?? 3599,
    codeLifetimeSeconds: options.codeLifetimeSeconds ?? 60,
  });
  const failures = new FailureSwitch();
  const requests: string[] = [];

  const state = {
    channel:
      options.channel === undefined ? { id: `UC${randomId(16)}`, title: 'Meetcast Test Channel' } : options.channel,
    liveStreamingEnabled: options.liveStreamingEnabled ?? true,
    isStreamActive: options.isStreamActive ?? (() => true),
  };
  const live = new FakeYouTubeLive({
    ingestBase: options.ingestBase ?? 'rtmp://127.0.0.1:1935/live2',
    isStreamActive: (streamName) => state.isStreamActive(streamName),
    isLiveStreamingEnabled: () => state.liveStreamingEnabled,
  });

  const chat = new FakeYouTubeChat(() => server.url);
  /** A chat is readable while its broadcast is live (YouTube: ended chats answer liveChatEnded). */
  const isChatLive = (liveChatId: string) =>
    [...live.broadcasts.values()].some(
      (broadcast) => FakeYouTubeChat.chatIdOf(broadcast.id) === liveChatId && broadcast.lifeCycleStatus !== 'complete',
    );

  const authorize = (request: FakeRequest): FakeReply => {
    const query = request.url.searchParams;
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    if (clientId !== client.id)
      return { status: 401, html: '<h1>Error 401: invalid_client</h1><p>The OAuth client was not found.</p>' };
    if (!/^https?:\/\//.test(redirectUri)) return { status: 400, html: '<h1>Error 400: redirect_uri_mismatch</h1>' };
    if (query.get('response_type') !== 'code')
      return { status: 400, html: '<h1>Error 400: unsupported_response_type</h1>' };
    const scopes = (query.get('scope') ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0)
      return { status: 400, html: '<h1>Error 400: invalid_request</h1><p>Missing required parameter: scope</p>' };
    const requestId = oauth.startConsent({ clientId, redirectUri, state: query.get('state') ?? undefined, scopes });
    return {
      status: 200,
      html: consentPage({
        platform: 'Google',
        account: state.channel?.title ?? 'a Google account without a YouTube channel',
        scopes,
        decideUrl: `${server.url}/o/oauth2/v2/auth/decide`,
        requestId,
      }),
    };
  };

  const decide = (request: FakeRequest): FakeReply => {
    const allow = request.url.searchParams.get('decision') === 'allow';
    const subject = state.channel?.id ?? `no-channel-${randomId(6)}`;
    const location = oauth.decide(request.url.searchParams.get('request') ?? '', allow, subject);
    return location ? { status: 302, location } : { status: 400, html: '<h1>This consent request has expired.</h1>' };
  };

  const token = (request: FakeRequest): FakeReply => {
    const form = request.form;
    if (form.client_id !== client.id || form.client_secret !== client.secret) {
      return { status: 401, json: { error: 'invalid_client', error_description: 'The OAuth client was not found.' } };
    }
    if (form.grant_type === 'authorization_code') {
      const issued = oauth.redeemCode(form.code ?? '', client.id, form.redirect_uri);
      if (issued === 'redirect')
        return { status: 400, json: { error: 'redirect_uri_mismatch', error_description: 'Bad Request' } };
      if (issued === 'invalid')
        return { status: 400, json: { error: 'invalid_grant', error_description: 'Bad Request' } };
      return {
        status: 200,
        json: {
          access_token: issued.accessToken,
          expires_in: issued.expiresIn,
          refresh_token: issued.refreshToken,
          scope: issued.grant.scopes.join(' '),
          token_type: 'Bearer',
        },
      };
    }
    if (form.grant_type === 'refresh_token') {
      // Google keeps the refresh token: the answer carries none.
      const issued = oauth.refresh(form.refresh_token ?? '', client.id, false);
      if (!issued)
        return {
          status: 400,
          json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
        };
      const { accessToken, expiresIn, grant } = issued;
      return {
        status: 200,
        json: { access_token: accessToken, expires_in: expiresIn, scope: grant.scopes.join(' '), token_type: 'Bearer' },
      };
    }
    return { status: 400, json: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' } };
  };

  const revoke = (request: FakeRequest): FakeReply => {
    const outcome = oauth.revokeToken(request.url.searchParams.get('token') ?? request.form.token ?? '');
    return outcome === 'revoked'
      ? { status: 200, json: {} }
      : { status: 400, json: { error: 'invalid_token', error_description: 'Token expired or revoked' } };
  };

  const youtube = async (request: FakeRequest, path: string): Promise<FakeReply> => {
    const access = oauth.lookup(bearer(request));
    if (!access) return unauthenticated();
    if (!access.grant.scopes.includes(YOUTUBE_SCOPE)) {
      return youtubeError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global');
    }
    const channelId = access.grant.subject;
    const query = request.url.searchParams;
    if (!query.get('part')) return youtubeError(400, 'required', 'Required parameter: part', 'global');
    const key = `${request.method} ${path}`;
    if (key === 'GET /channels') {
      const mine = state.channel && state.channel.id === channelId ? [state.channel] : [];
      return {
        status: 200,
        json: {
          kind: 'youtube#channelListResponse',
          pageInfo: { totalResults: mine.length, resultsPerPage: 5 },
          items: mine.map((channel) => ({
            kind: 'youtube#channel',
            id: channel.id,
            snippet: { title: channel.title },
          })),
        },
      };
    }
    if (key === 'GET /liveChat/messages') return chat.list(query, isChatLive);
    if (path.startsWith('/live')) return live.handle(key, channelId, query, request.json);
    return youtubeError(404, 'notFound', 'Not Found', 'global');
  };

  const server = await startFakeServer(async (request) => {
    const path = request.url.pathname;
    requests.push(`${request.method} ${path}`);
    if (request.method === 'GET' && path === '/o/oauth2/v2/auth') return authorize(request);
    if (request.method === 'GET' && path === '/o/oauth2/v2/auth/decide') return decide(request);
    if (request.method === 'GET' && path.startsWith('/avatar/'))
      return { status: 200, body: FAKE_AVATAR_PNG, type: 'image/png' };
    const failure = failures.take();
    if (failure) return youtubeError(failure, 'backendError', 'Backend Error', 'global');
    if (request.method === 'POST' && path === '/token') return token(request);
    if (request.method === 'POST' && path === '/revoke') return revoke(request);
    if (path.startsWith('/youtube/v3/')) return youtube(request, path.slice('/youtube/v3'.length));
    return { status: 404, json: { error: { code: 404, message: 'Not Found' } } };
  }, options.port);

  return {
    url: server.url,
    client,
    env: {
      GOOGLE_AUTH_URL: `${server.url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${server.url}/token`,
      GOOGLE_REVOKE_URL: `${server.url}/revoke`,
      YOUTUBE_API_URL: `${server.url}/youtube/v3`,
      YOUTUBE_CLIENT_ID: client.id,
      YOUTUBE_CLIENT_SECRET: client.secret,
    },
    get channel() {
      return state.channel;
    },
    set channel(value) {
      state.channel = value;
    },
    get liveStreamingEnabled() {
      return state.liveStreamingEnabled;
    },
    set liveStreamingEnabled(value) {
      state.liveStreamingEnabled = value;
    },
    get isStreamActive() {
      return state.isStreamActive;
    },
    set isStreamActive(value) {
      state.isStreamActive = value;
    },
    oauth,
    broadcasts: () => [...live.broadcasts.values()].map((broadcast) => ({ ...broadcast })),
    streams: () => [...live.streams.values()].map((stream) => ({ ...stream })),
    get insertedBroadcasts() {
      return live.inserted;
    },
    requests,
    failNext: (count, status, after) => failures.failNext(count, status, after),
    revokeAll: () => oauth.revokeAll(),
    chat,
    close: server.close,
  };
}
