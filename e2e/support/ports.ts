import { createHash } from 'node:crypto';

/** Ports in a block of ten, all below Linux's ephemeral range (32768 and up). */
const BLOCK = 10;
const LOWEST = 10_000;
const EPHEMERAL_START = 32_768;

/**
 * Ports of the end-to-end servers. Several checkouts may run their suites on one machine at the same
 * time, so the defaults are derived from the checkout's path; E2E_PORT moves the whole block. The
 * block stays below the ephemeral range: a port there can be held by any outgoing connection of the
 * machine at that moment (a CI run once found the OpenID provider's port taken that way).
 */
function defaultBase(): number {
  const digest = createHash('sha256').update(process.cwd()).digest();
  return LOWEST + (digest.readUInt16BE(0) % Math.floor((EPHEMERAL_START - LOWEST) / BLOCK)) * BLOCK;
}

const base = Number(process.env.E2E_PORT ?? defaultBase());

export const E2E_PORTS = {
  app: base,
  smtp: base + 1,
  mailApi: base + 2,
  /** Test-only notification hook of app-server.ts (loopback, never part of the product). */
  hook: base + 3,
  /** The test OpenID provider of oidc-provider.ts. */
  oidc: base + 4,
  /** The local stand-ins of Google/YouTube and Twitch (app-server.ts runs them). */
  google: base + 5,
  twitch: base + 6,
  /** RTMP receivers the streaming tests start: where YouTube, Twitch and a custom address push. */
  youtubeIngest: base + 7,
  twitchIngest: base + 8,
  customIngest: base + 9,
};

export const APP_URL = `http://127.0.0.1:${E2E_PORTS.app}`;
export const MAIL_API_URL = `http://127.0.0.1:${E2E_PORTS.mailApi}`;
export const HOOK_URL = `http://127.0.0.1:${E2E_PORTS.hook}`;
export const OIDC_ISSUER = `http://127.0.0.1:${E2E_PORTS.oidc}`;
