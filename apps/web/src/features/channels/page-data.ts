import type { z } from 'zod';

/**
 * What the server put into a channel page's HTML (ADR 011): the answers of get-channel.php (signed
 * out) and get-broadcast-viewer.php for the address's slug, as JSON data blocks, so the page renders
 * and its live picture connects without asking first. Names shared with og-page.ts on the server.
 */
export const PAGE_DATA = {
  channelPage: 'channel-page',
  broadcastViewer: 'broadcast-viewer',
  /** On a live broadcast's page: the app's entry, which the early watch starts (early-watch.ts). */
  appEntry: 'app-entry',
} as const;
/** The viewer grant in the page opens a connection for a minute: a page older than this asks afresh. */
const FRESH_MS = 30_000;

/** The slug of a server-rendered channel page's address (`/channel/{slug}`), if this is one. */
export function pageSlug(): string | undefined {
  const match = /^\/channel\/([^/]+)$/.exec(window.location.pathname);
  try {
    return match?.[1] ? decodeURIComponent(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The parsed block `id` of this page, if the page is `slug`'s and still fresh. Unchecked: the early
 * watch reads it without a schema library (see early-watch.ts); everything else goes through
 * `readPageData`.
 */
export function readPageJson(id: string, slug: string | undefined): unknown {
  if (!slug || slug !== pageSlug() || performance.now() > FRESH_MS) return undefined;
  const text = document.getElementById(id)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A damaged block only costs the page its head start: it asks the server as before.
    return undefined;
  }
}

/** The block `id` of this page, if the page is `slug`'s, still fresh, and the block matches `schema`. */
export function readPageData<T>(id: string, slug: string | undefined, schema: z.ZodType<T>): T | undefined {
  const parsed = schema.safeParse(readPageJson(id, slug));
  return parsed.success ? parsed.data : undefined;
}
