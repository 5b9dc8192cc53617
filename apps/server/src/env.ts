import { resolve } from 'node:path';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './http/client-address.js';
import { parseAddressPolicy, type AddressPolicy } from './platform/address-policy.js';
import { parseSecretsKey } from './platform/secrets-box.js';

const optionalUrl = z.url().optional();
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** The environment of the README's "Configuration" table, validated once at start-up. */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
  REDIS_URL: z.preprocess(emptyToUndefined, optionalUrl),
  SMTP_URL: z.preprocess(emptyToUndefined, optionalUrl),
  MAIL_FROM: z.string().default('Meetcast <no-reply@localhost>'),
  PUBLIC_URL: z.preprocess(emptyToUndefined, optionalUrl),
  JANUS_URL: z.preprocess(emptyToUndefined, z.string().optional()),
  /** For JANUS_URL instances: their `api_secret` and VideoRoom `admin_key`, when they set them. */
  JANUS_API_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  JANUS_ADMIN_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The Janus binary the server starts when JANUS_URL is not set. */
  JANUS_BINARY: z.string().default('janus'),
  JANUS_RTP_PORT_RANGE: z
    .string()
    .regex(/^\d{1,5}-\d{1,5}$/)
    .default('20000-40000'),
  /** The public address of a managed Janus behind 1:1 NAT (cloud machines); default: PUBLIC_IP (ADR 035). */
  JANUS_NAT_1_1_MAPPING: z.preprocess(emptyToUndefined, z.string().optional()),
  /** This machine's public address when it sits behind NAT: Janus' nat_1_1_mapping, coturn's external-ip. */
  PUBLIC_IP: z.preprocess(emptyToUndefined, z.ipv4().or(z.ipv6()).optional()),
  /** How long a meeting room may stay empty (people reconnecting) before its session ends. */
  ROOM_EMPTY_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(35),
  /**
   * How long someone whose connections dropped (network change, sleep, a stalled tab) keeps their seat,
   * and a meeting whose people all dropped stays alive (ADR 032). At most 4 min: a grant not renewed
   * for 5 min stops working, and a connected participant renews it every minute.
   */
  ROOM_RECONNECT_GRACE_SECONDS: z.coerce.number().int().min(1).max(240).default(120),
  /** `off`: no TURN server at all; otherwise TURN_URL's, or the coturn this server starts (ADR 035). */
  TURN: z.enum(['on', 'off']).default('on'),
  /** Comma-separated `turn:`/`turns:`/`stun:` addresses of an existing TURN server (with TURN_SECRET). */
  TURN_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\s*(turns?|stun):[^,\s]+(\s*,\s*(turns?|stun):[^,\s]+)*\s*$/, 'comma-separated turn:, turns: or stun: addresses')
      .optional(),
  ),
  /** The `static-auth-secret` of TURN_URL's coturn: browsers get time-limited credentials made with it. */
  TURN_SECRET: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
  /** The managed coturn: its binary, its UDP+TCP port, its relay ports, and TLS when a certificate is given. */
  TURN_BINARY: z.string().default('turnserver'),
  TURN_PORT: z.coerce.number().int().min(1).max(65535).default(3478),
  TURN_RELAY_PORT_RANGE: z
    .string()
    .regex(/^\d{1,5}-\d{1,5}$/)
    .default('49152-65535'),
  TURN_TLS_PORT: z.coerce.number().int().min(1).max(65535).default(5349),
  TURN_TLS_CERT: z.preprocess(emptyToUndefined, z.string().optional()),
  TURN_TLS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  OIDC_ISSUER: z.preprocess(emptyToUndefined, optionalUrl),
  OIDC_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  OIDC_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  OIDC_DISPLAY_NAME: z.string().default('SSO'),
  /** Comma-separated e-mail domains allowed through the external provider; empty allows all. */
  OIDC_ALLOWED_DOMAINS: z.string().default(''),
  /** Prefix of every Redis key and channel, so that installations can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w-]{1,40}$/)
    .default('meetcast'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Scales every rate limit; test suites that sign many accounts in from one address raise it. */
  RATE_LIMIT_MULTIPLIER: z.coerce.number().positive().default(1),
  /**
   * Who may tell the client's address in X-Forwarded-For: a hop count (`1`), or a comma-separated
   * list of proxy addresses/CIDRs (`127.0.0.1,10.0.0.0/8`). Unset: nobody, the socket's address counts.
   */
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(\d{1,2}|[\da-fA-F:./]+(\s*,\s*[\da-fA-F:./]+)*)$/, 'a hop count or a list of addresses/CIDRs')
      .optional(),
  ),
  /** Where the built web app lives; the server serves it with a fallback for client routes. */
  WEB_DIST_DIR: z.string().optional(),
  /** How often each server process looks for meeting reminders to send; 0 turns the scheduler off. */
  REMINDER_INTERVAL_SECONDS: z.coerce.number().min(0).max(3600).default(30),
  // Streaming platforms (README, "Configuration"): a platform without its client is not offered.
  YOUTUBE_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  YOUTUBE_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  TWITCH_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  TWITCH_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  GOOGLE_AUTH_URL: z.preprocess(emptyToUndefined, z.url().default('https://accounts.google.com/o/oauth2/v2/auth')),
  GOOGLE_TOKEN_URL: z.preprocess(emptyToUndefined, z.url().default('https://oauth2.googleapis.com/token')),
  GOOGLE_REVOKE_URL: z.preprocess(emptyToUndefined, z.url().default('https://oauth2.googleapis.com/revoke')),
  YOUTUBE_API_URL: z.preprocess(emptyToUndefined, z.url().default('https://www.googleapis.com/youtube/v3')),
  TWITCH_OAUTH_URL: z.preprocess(emptyToUndefined, z.url().default('https://id.twitch.tv/oauth2')),
  TWITCH_API_URL: z.preprocess(emptyToUndefined, z.url().default('https://api.twitch.tv/helix')),
  TWITCH_INGEST_URL: z.preprocess(emptyToUndefined, z.url().default('https://ingest.twitch.tv/ingests')),
  TWITCH_EVENTSUB_URL: z.preprocess(emptyToUndefined, z.url().default('wss://eventsub.wss.twitch.tv/ws')),
  CONNECT_STREAM_URL: z.preprocess(emptyToUndefined, optionalUrl),
  /**
   * Addresses inside this machine or its networks that streams may still go to: comma-separated
   * addresses, CIDRs or host names (a LAN nginx-rtmp). Unset: every such address is refused.
   */
  RTMP_ALLOW_PRIVATE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .superRefine((value, issues) => {
        try {
          parseAddressPolicy(value);
        } catch (error) {
          issues.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
        }
      }),
  ),
  /** Encrypts stored platform tokens and stream keys; unset: generated into DATA_DIR on first start. */
  SECRETS_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((value) => parseSecretsKey(value) !== undefined, '32 bytes written as 64 hex digits or as base64')
      .optional(),
  ),
  /**
   * Broadcast composers in this process: `local` (the only ones: a full machine refuses at once),
   * `shared` (composer machines elsewhere too: whichever has room takes a broadcast), `off`.
   */
  COMPOSER_WORKER: z.enum(['local', 'shared', 'off']).default('local'),
  /** Cores this machine gives composers; unset: all of its cores. */
  COMPOSER_CORES: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(1024).optional()),
  /** Composers kept started and idle, so going live does not wait for a browser to launch (~300 MB each). */
  COMPOSER_SPARES: z.coerce.number().int().min(0).max(4).default(1),
  /** Where a composer opens the meeting's layout page; unset: this process's own address. */
  COMPOSER_PAGE_URL: z.preprocess(emptyToUndefined, optionalUrl),
  /** Broadcasts one account may run (or have waiting for a composer) at once. */
  BROADCAST_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).max(100).default(2),
  /** Broadcasts the installation runs at once, whatever its composers could take; 0: no such limit. */
  BROADCAST_LIMIT_TOTAL: z.coerce.number().int().min(0).max(10_000).default(0),
  /** A broadcast ends by itself after this long. */
  BROADCAST_MAX_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(240),
  /** A broadcast ends by itself once nobody has been in its meeting for this long. */
  BROADCAST_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(5),
  /** Open viewer connections (/janus-watch) from one address, and to one broadcast. */
  VIEWER_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(20),
  VIEWER_CONNECTIONS_PER_BROADCAST: z.coerce.number().int().min(1).max(100_000).default(1000),
  /**
   * How long a process serves what viewers are shown of a broadcast (get-broadcast-viewer.php, the
   * HLS checks) without reading it again, when no change was announced (ADR 034).
   */
  VIEWER_STATE_MAX_AGE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
});
export type Env = z.infer<typeof EnvSchema>;

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  redisPrefix: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  janusUrls: string[];
  janus: {
    apiSecret: string | undefined;
    adminKey: string | undefined;
    binary: string;
    rtpPortRange: string;
    nat11Mapping: string | undefined;
  };
  publicIp: string | undefined;
  turn: TurnConfig;
  roomEmptyGraceSeconds: number;
  roomReconnectGraceSeconds: number;
  oidc:
    | {
        issuer: string;
        clientId: string;
        clientSecret: string;
        displayName: string;
        allowedDomains: string[];
      }
    | undefined;
  logLevel: Env['LOG_LEVEL'];
  rateLimitMultiplier: number;
  trustProxy: TrustProxy;
  webDistDir: string;
  reminderIntervalSeconds: number;
  streaming: StreamingConfig;
  composer: { mode: Env['COMPOSER_WORKER']; cores: number | undefined; spares: number; pageUrl: string | undefined };
  /** Broadcast slots: per account, per installation (0: none), and when a running one is ended. */
  broadcastLimits: { perAccount: number; total: number; maxMinutes: number; idleMinutes: number };
  viewerLimits: { perAddress: number; perBroadcast: number };
  viewerStateMaxAgeMs: number;
}

/** Where browsers find a TURN relay (ADR 035): none, an existing server, or the coturn we start. */
export type TurnConfig =
  | { mode: 'off' }
  | { mode: 'external'; urls: string[]; secret: string | undefined }
  | {
      mode: 'managed';
      binary: string;
      port: number;
      relayPortRange: string;
      tls: { port: number; cert: string; key: string } | undefined;
    };

export interface PlatformClient {
  clientId: string;
  clientSecret: string;
}

/** Where the streaming platforms are and which of them this installation may connect to. */
export interface StreamingConfig {
  youtube: PlatformClient | undefined;
  twitch: PlatformClient | undefined;
  googleAuthUrl: string;
  googleTokenUrl: string;
  googleRevokeUrl: string;
  youtubeApiUrl: string;
  twitchOAuthUrl: string;
  twitchApiUrl: string;
  twitchIngestUrl: string;
  /** EventSub's WebSocket, where Twitch chat arrives (ADR 040). */
  twitchEventSubUrl: string;
  /** The OAuth callback page, registered at both platforms as the redirect address. */
  connectStreamUrl: string;
  secretsKey: string | undefined;
  /** RTMP_ALLOW_PRIVATE: what inside the machine's networks a stream may still be sent to. */
  allowPrivate: AddressPolicy;
}

export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n  ${problems.join('\n  ')}`);
  }
  const env = parsed.data;
  const oidcParts = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
  if (oidcParts.some(Boolean) && !oidcParts.every(Boolean)) {
    throw new Error('Invalid environment: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together');
  }
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    publicUrl,
    janusUrls: (env.JANUS_URL ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean),
    janus: {
      apiSecret: env.JANUS_API_SECRET,
      adminKey: env.JANUS_ADMIN_KEY,
      binary: env.JANUS_BINARY,
      rtpPortRange: env.JANUS_RTP_PORT_RANGE,
      nat11Mapping: env.JANUS_NAT_1_1_MAPPING ?? env.PUBLIC_IP,
    },
    publicIp: env.PUBLIC_IP,
    turn: turnConfig(env, source),
    roomEmptyGraceSeconds: env.ROOM_EMPTY_GRACE_SECONDS,
    roomReconnectGraceSeconds: env.ROOM_RECONNECT_GRACE_SECONDS,
    oidc:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
        ? {
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
            displayName: env.OIDC_DISPLAY_NAME,
            allowedDomains: env.OIDC_ALLOWED_DOMAINS.split(',')
              .map((d) => d.trim().toLowerCase())
              .filter(Boolean),
          }
        : undefined,
    logLevel: env.LOG_LEVEL,
    rateLimitMultiplier: env.RATE_LIMIT_MULTIPLIER,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    webDistDir: resolve(env.WEB_DIST_DIR ?? new URL('../../web/dist', import.meta.url).pathname),
    reminderIntervalSeconds: env.REMINDER_INTERVAL_SECONDS,
    streaming: streamingConfig(env, publicUrl),
    composer: {
      mode: env.COMPOSER_WORKER,
      cores: env.COMPOSER_CORES,
      spares: env.COMPOSER_SPARES,
      pageUrl: env.COMPOSER_PAGE_URL,
    },
    broadcastLimits: {
      perAccount: env.BROADCAST_LIMIT_PER_ACCOUNT,
      total: env.BROADCAST_LIMIT_TOTAL,
      maxMinutes: env.BROADCAST_MAX_MINUTES,
      idleMinutes: env.BROADCAST_IDLE_MINUTES,
    },
    viewerLimits: {
      perAddress: env.VIEWER_CONNECTIONS_PER_ADDRESS,
      perBroadcast: env.VIEWER_CONNECTIONS_PER_BROADCAST,
    },
    viewerStateMaxAgeMs: env.VIEWER_STATE_MAX_AGE_MS,
  };
}

function turnConfig(env: Env, source: Record<string, string | undefined>): TurnConfig {
  if (source.TURN_USERNAME || source.TURN_CREDENTIAL) {
    throw new Error(
      'Invalid environment: TURN_USERNAME and TURN_CREDENTIAL are gone; set TURN_SECRET, the static-auth-secret of your coturn (time-limited credentials, ADR 035)',
    );
  }
  if (Boolean(env.TURN_TLS_CERT) !== Boolean(env.TURN_TLS_KEY)) {
    throw new Error('Invalid environment: TURN_TLS_CERT and TURN_TLS_KEY go together');
  }
  if (env.TURN === 'off') return { mode: 'off' };
  if (env.TURN_URL) {
    const urls = env.TURN_URL.split(',')
      .map((url) => url.trim())
      .filter(Boolean);
    if (urls.some((url) => url.startsWith('turn')) && !env.TURN_SECRET) {
      throw new Error('Invalid environment: TURN_URL with a turn: address needs TURN_SECRET (its static-auth-secret)');
    }
    return { mode: 'external', urls, secret: env.TURN_SECRET };
  }
  return {
    mode: 'managed',
    binary: env.TURN_BINARY,
    port: env.TURN_PORT,
    relayPortRange: env.TURN_RELAY_PORT_RANGE,
    tls:
      env.TURN_TLS_CERT && env.TURN_TLS_KEY
        ? { port: env.TURN_TLS_PORT, cert: resolve(env.TURN_TLS_CERT), key: resolve(env.TURN_TLS_KEY) }
        : undefined,
  };
}

function platformClient(name: 'YOUTUBE' | 'TWITCH', id: string | undefined, secret: string | undefined) {
  if (Boolean(id) !== Boolean(secret)) {
    throw new Error(
      `Invalid environment: ${name}_CLIENT_ID and ${name}_CLIENT_SECRET go together (set both or neither)`,
    );
  }
  return id && secret ? { clientId: id, clientSecret: secret } : undefined;
}

function streamingConfig(env: Env, publicUrl: string): StreamingConfig {
  return {
    youtube: platformClient('YOUTUBE', env.YOUTUBE_CLIENT_ID, env.YOUTUBE_CLIENT_SECRET),
    twitch: platformClient('TWITCH', env.TWITCH_CLIENT_ID, env.TWITCH_CLIENT_SECRET),
    googleAuthUrl: env.GOOGLE_AUTH_URL,
    googleTokenUrl: env.GOOGLE_TOKEN_URL,
    googleRevokeUrl: env.GOOGLE_REVOKE_URL,
    // Bases are joined with paths, so a trailing slash would double up.
    youtubeApiUrl: env.YOUTUBE_API_URL.replace(/\/+$/, ''),
    twitchOAuthUrl: env.TWITCH_OAUTH_URL.replace(/\/+$/, ''),
    twitchApiUrl: env.TWITCH_API_URL.replace(/\/+$/, ''),
    twitchIngestUrl: env.TWITCH_INGEST_URL,
    twitchEventSubUrl: env.TWITCH_EVENTSUB_URL,
    connectStreamUrl: env.CONNECT_STREAM_URL ?? `${publicUrl}/connect-stream`,
    secretsKey: env.SECRETS_KEY,
    allowPrivate: parseAddressPolicy(env.RTMP_ALLOW_PRIVATE),
  };
}
