import type { AppContext } from '../../context.js';

/** Where the platforms keep profile pictures; only these (and the configured API hosts) are fetched. */
const PICTURE_HOSTS = [/\.ggpht\.com$/, /\.googleusercontent\.com$/, /\.jtvnw\.net$/];
const MAX_BYTES = 96 * 1024;
const TIMEOUT_MS = 3000;
const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;

/**
 * A viewer's picture as a `data:` address, for the comment card: the layout page's policy loads images
 * only from its own origin and `data:`, and a platform address must not make the server fetch just
 * anything. Null (initials are drawn) when it is not a platform's, too large, or does not come.
 */
export async function avatarDataUrl(context: AppContext, address: string | null): Promise<string | null> {
  if (!address) return null;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  const { youtubeApiUrl, twitchApiUrl } = context.config.streaming;
  const apiOrigins = [youtubeApiUrl, twitchApiUrl].map((base) => new URL(base).origin);
  const isPlatformHost = url.protocol === 'https:' && PICTURE_HOSTS.some((host) => host.test(url.hostname));
  if (!isPlatformHost && !apiOrigins.includes(url.origin)) return null;
  try {
    const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!response.ok || !IMAGE_TYPES.test(type)) return null;
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length === 0 || bytes.length > MAX_BYTES) return null;
    return `data:${type};base64,${bytes.toString('base64')}`;
  } catch (error) {
    context.log.info({ err: error }, 'comment card: no picture');
    return null;
  }
}
