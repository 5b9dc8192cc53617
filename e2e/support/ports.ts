import { createHash } from 'node:crypto';

/**
 * Ports of the end-to-end servers. Several checkouts may run their suites on one machine at the same
 * time, so the defaults are derived from the checkout's path; E2E_PORT moves the whole block.
 */
function defaultBase(): number {
  const digest = createHash('sha256').update(process.cwd()).digest();
  return 20_000 + (digest.readUInt16BE(0) % 4000) * 4;
}

const base = Number(process.env.E2E_PORT ?? defaultBase());

export const E2E_PORTS = {
  app: base,
  smtp: base + 1,
  mailApi: base + 2,
  /** Test-only notification hook of app-server.ts (loopback, never part of the product). */
  hook: base + 3,
  /** The test OpenID provider of oidc-provider.ts, outside the block so it stays per checkout. */
  oidc: base + 20_000,
  /** The local stand-ins of Google/YouTube and Twitch (app-server.ts runs them). */
  google: base + 20_001,
  twitch: base + 20_002,
  /** RTMP receivers the streaming tests start: where YouTube, Twitch and a custom address push. */
  youtubeIngest: base + 20_003,
  twitchIngest: base + 20_004,
  customIngest: base + 20_005,
};

export const APP_URL = `http://127.0.0.1:${E2E_PORTS.app}`;
export const MAIL_API_URL = `http://127.0.0.1:${E2E_PORTS.mailApi}`;
export const HOOK_URL = `http://127.0.0.1:${E2E_PORTS.hook}`;
export const OIDC_ISSUER = `http://127.0.0.1:${E2E_PORTS.oidc}`;
