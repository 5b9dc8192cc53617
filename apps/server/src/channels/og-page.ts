import type { BroadcastViewer, ChannelPage } from '@meetcast/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from '../http/app-error.js';
import { requestLanguage } from '../http/request-language.js';
import type { IndexPage } from '../http/web-app.js';
import { translate } from '../i18n/messages.js';
import { getChannelPage } from './channel-service.js';
import { escapeHtml } from '../platform/text.js';

export interface OpenGraph {
  title: string;
  description: string;
  url: string;
  image: string | null;
  /** The oEmbed address of the page (ADR 011), for sites that embed shared links. */
  oembed?: string;
}

/**
 * What a channel page's scripts would ask for first, put into its HTML (the web app's
 * `features/channels/page-data.ts` reads it under the same ids): the data of get-channel.php's
 * answer signed out, and of get-broadcast-viewer.php's for a broadcast's page.
 */
export interface PageData {
  'channel-page': ChannelPage;
  'broadcast-viewer'?: BroadcastViewer;
}

/**
 * A JSON data block: never executed (so outside the script policy), and with every `<` escaped so
 * that no text in it (a channel's description) can close the element.
 */
function dataBlock(id: string, value: unknown) {
  const json = JSON.stringify(value).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${id}">${json}</script>`;
}

/** The id of the block that hands the app's entry to the early watch (the web app's page-data.ts). */
const APP_ENTRY_BLOCK = 'app-entry';
/**
 * Where index.html wants the page's data, at the top of its head, and after it the early watch (the
 * web app's player/early-watch.ts, built as `early-watch.js`): on a live broadcast's page that script
 * reads the data and connects while the rest of the page is still being parsed (ADR 011).
 */
const PAGE_DATA_MARK = '<!-- page-data -->';
const EARLY_WATCH_MARK = '<!-- early-watch -->';

/**
 * On a live broadcast's page the app's entry script waits for the picture: it is preloaded (fetched
 * and compiled beside the connection) and its address handed to the early watch in a data block,
 * which imports it once the first frame is shown or after at most 1.5 s (ADR 011: the app's
 * evaluation held up the connection's steps on the page's one main thread).
 */
function holdAppEntry(page: string): { page: string; entry?: string } {
  let entry: string | undefined;
  const held = page.replace(/<script type="module" crossorigin src="([^"]+)"><\/script>/i, (_script, src: string) => {
    entry = src;
    return `<link rel="modulepreload" crossorigin href="${src}" />`;
  });
  return { page: held, entry };
}

/**
 * Puts Open Graph and Twitter card tags (escaped) into the SPA's index.html's head, and the page's
 * data where index.html marks its place (else at the end of the head); on a live broadcast's page
 * also the early watch, which then starts the app.
 */
export function injectOpenGraph(
  html: string,
  og: OpenGraph | undefined,
  data?: PageData,
  earlyWatchScript?: string,
): string {
  const tags = og
    ? [
        `<meta property="og:type" content="website" />`,
        `<meta property="og:site_name" content="Meetcast" />`,
        `<meta property="og:title" content="${escapeHtml(og.title)}" />`,
        `<meta property="og:description" content="${escapeHtml(og.description)}" />`,
        `<meta property="og:url" content="${escapeHtml(og.url)}" />`,
        ...(og.image ? [`<meta property="og:image" content="${escapeHtml(og.image)}" />`] : []),
        `<meta name="twitter:card" content="${og.image ? 'summary_large_image' : 'summary'}" />`,
        `<meta name="description" content="${escapeHtml(og.description)}" />`,
        ...(og.oembed
          ? [`<link rel="alternate" type="application/json+oembed" href="${escapeHtml(og.oembed)}" />`]
          : []),
      ]
    : [`<meta name="robots" content="noindex" />`];
  const blocks = Object.entries(data ?? {}).flatMap(([id, value]) => (value ? [dataBlock(id, value)] : []));
  let page = html;
  if (data?.['broadcast-viewer']?.webrtc && earlyWatchScript !== undefined && page.includes(EARLY_WATCH_MARK)) {
    const held = holdAppEntry(page);
    page = held.page.replace(EARLY_WATCH_MARK, () => `<script>${earlyWatchScript}</script>`);
    if (held.entry) blocks.push(dataBlock(APP_ENTRY_BLOCK, held.entry));
  }
  // Replacement functions, never strings: a `$` in a channel's text must not act as a replace pattern.
  if (page.includes(PAGE_DATA_MARK)) page = page.replace(PAGE_DATA_MARK, () => blocks.join('\n    '));
  else tags.push(...blocks);
  if (og) {
    page = page.replace(/<title>[^<]*<\/title>/i, () => `<title>${escapeHtml(og.title)} · Meetcast</title>`);
    // The page's own description gives way to the channel's: crawlers take one, and not always the last.
    page = page.replace(/\n?[ \t]*<meta\s+name="description"[^>]*>/gi, '');
  }
  return page.replace(/<\/head>/i, () => `${tags.join('\n    ')}\n  </head>`);
}

function summary(text: string) {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 197)}…` : flat;
}

/**
 * GET /channel/{slug}: the SPA page with Open Graph tags for the channel or broadcast, so a shared
 * link shows its name, description and picture. Unknown and hidden ones get the page with a 404.
 * A broadcast's page also carries what its player plays (`viewerState`, the answer of
 * get-broadcast-viewer.php), so that a live picture starts before the page's scripts could ask.
 */
export function registerChannelPageRoute(
  app: FastifyInstance,
  context: AppContext,
  viewerState: (meetId: string) => Promise<BroadcastViewer>,
  indexPage: IndexPage | undefined,
) {
  // Read once at start, as for every other page (web-app.ts): a new build means a restart anyway.
  const html = indexPage?.identity.toString('utf8');
  app.get<{ Params: { slug: string } }>('/channel/:slug', { schema: { hide: true } }, async (request, reply) => {
    if (html === undefined) {
      return reply
        .status(404)
        .send({ status: 'error', message: translate(requestLanguage(request), 'errors.not_found') });
    }
    const slug = request.params.slug.slice(0, 200);
    let og: OpenGraph | undefined;
    let data: PageData | undefined;
    // Asked beside the page: a channel's own slug is no meeting, and has nothing of its own to play.
    const viewer = viewerState(slug).catch((error: unknown) => {
      if (!(error instanceof AppError)) request.log.warn({ err: error }, 'channel page: no viewer state');
      return undefined;
    });
    try {
      const page = await getChannelPage(context, undefined, slug);
      data = {
        'channel-page': page,
        'broadcast-viewer': await viewer,
      };
      const base = context.config.publicUrl;
      const url = `${base}/channel/${encodeURIComponent(slug)}`;
      const picture = page.channel?.cover ?? page.channel?.avatar ?? page.broadcast?.host.avatar ?? null;
      const image = picture ? `${base}/${picture}` : null;
      const oembed = `${base}/api/oembed?url=${encodeURIComponent(url)}`;
      const name = page.channel ? `${page.broadcast?.name} · ${page.channel.name}` : (page.broadcast?.name ?? '');
      // A shared link says the broadcast is on now (ADR 011), in the language the link was fetched in.
      const isLive = page.broadcast?.state === 'live';
      og = page.broadcast
        ? {
            title: isLive ? translate(requestLanguage(request), 'channels.og_live', { title: name }) : name,
            description: summary(page.broadcast.description || page.channel?.description || page.broadcast.name),
            url,
            image,
            oembed,
          }
        : {
            title: page.channel?.name ?? slug,
            description: summary(page.channel?.description ?? ''),
            url,
            image,
            oembed,
          };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
    return reply
      .status(og ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(injectOpenGraph(html, og, data, indexPage?.earlyWatchScript));
  });
}
