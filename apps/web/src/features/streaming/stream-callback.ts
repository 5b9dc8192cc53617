import { OAUTH_STREAM_PLATFORMS, type OAuthStreamPlatform } from '@meetcast/contracts';

/** The platform whose connection was started in this tab, kept while the browser visits the provider. */
export const CONNECT_PLATFORM_KEY = 'meetcast.stream-connect.platform';

export interface FinishConnectionFields {
  platform: OAuthStreamPlatform;
  state: string;
  code?: string;
  error?: string;
}

/**
 * What the address of /connect-stream says: nothing (opened by hand), a provider's answer to send
 * on, or an answer this tab cannot place because it did not start a connection (another tab, or the
 * stored platform was lost).
 */
export type StreamCallback =
  { kind: 'none' } | { kind: 'unknown-platform' } | { kind: 'finish'; fields: FinishConnectionFields };

function isOAuthPlatform(value: string | null): value is OAuthStreamPlatform {
  return OAUTH_STREAM_PLATFORMS.some((platform) => platform === value);
}

export function parseStreamCallback(search: string, storedPlatform: string | null): StreamCallback {
  const params = new URLSearchParams(search);
  const code = params.get('code')?.trim() ?? '';
  const error = params.get('error')?.trim() ?? '';
  if (!code && !error) return { kind: 'none' };
  if (!isOAuthPlatform(storedPlatform)) return { kind: 'unknown-platform' };
  const fields: FinishConnectionFields = { platform: storedPlatform, state: params.get('state') ?? '' };
  // A refusal carries no code; when both came, the refusal wins (the provider gave no grant).
  if (error) fields.error = error;
  else fields.code = code;
  return { kind: 'finish', fields };
}
