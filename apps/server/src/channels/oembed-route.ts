import { ErrorBodySchema } from '@meetcast/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { getChannelPage } from './channel-service.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/app-error.js';
import { requestLanguage } from '../http/request-language.js';
import { translate } from '../i18n/messages.js';
import { escapeHtml } from '../platform/text.js';

const OembedQuerySchema = z.object({
  url: z.string().max(500),
  format: z.enum(['json']).default('json'),
  maxwidth: z.coerce.number().int().min(100).max(4000).optional(),
  maxheight: z.coerce.number().int().min(100).max(4000).optional(),
});

const OembedSchema = z.object({
  version: z.literal('1.0'),
  type: z.literal('video'),
  provider_name: z.string(),
  provider_url: z.string(),
  title: z.string(),
  author_name: z.string().optional(),
  author_url: z.string().optional(),
  thumbnail_url: z.string().optional(),
  html: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

/**
 * GET /api/oembed?url=…: oEmbed (a GET by that protocol) for a public channel or broadcast
 * page, answering the embeddable player (`/channel/{meetId}?embed=1`) as an iframe.
 */
export function registerOembedRoute(app: FastifyInstance, context: AppContext) {
  const base = context.config.publicUrl.replace(/\/$/, '');
  app.get(
    '/api/oembed',
    {
      schema: {
        tags: ['streaming'],
        summary: 'oEmbed for a public channel or broadcast page: its title, picture and embeddable player',
        querystring: OembedQuerySchema,
        response: { 200: OembedSchema, '4xx': ErrorBodySchema, '5xx': ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const query = request.query as z.infer<typeof OembedQuerySchema>;
      const language = requestLanguage(request);
      const match = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/channel/([^/?#]{1,200})`).exec(
        query.url,
      );
      const notFound = () =>
        reply.status(404).send({ status: 'error', message: translate(language, 'channels.unavailable') });
      if (!match) return notFound();
      const slug = decodeURIComponent(match[1]!);
      try {
        const page = await getChannelPage(context, undefined, slug);
        const width = Math.min(query.maxwidth ?? 640, 1280);
        const height = Math.min(query.maxheight ?? Math.round((width * 9) / 16), Math.round((width * 9) / 16));
        const title = page.broadcast?.name ?? page.channel?.name ?? slug;
        const picture = page.channel?.avatar ?? page.broadcast?.host.avatar ?? null;
        const src = `${base}/channel/${encodeURIComponent(slug)}?embed=1`;
        return {
          version: '1.0' as const,
          type: 'video' as const,
          provider_name: 'Meetcast',
          provider_url: base,
          title,
          ...(page.channel
            ? { author_name: page.channel.name, author_url: `${base}/channel/${page.channel.slug}` }
            : {}),
          ...(picture ? { thumbnail_url: `${base}/${picture}` } : {}),
          html: `<iframe src="${escapeHtml(src)}" width="${width}" height="${height}" title="${escapeHtml(title)}" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`,
          width,
          height,
        };
      } catch (error) {
        if (error instanceof AppError) return notFound();
        throw error;
      }
    },
  );
}
