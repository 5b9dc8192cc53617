import { FALLBACK_LANGUAGE, isLanguage, matchLanguage, type Language } from '@meetcast/contracts';
import type { FastifyRequest } from 'fastify';
import { readCookie } from './cookies.js';

/** The language a request asks for: its `lng` field, then the i18next cookie, then Accept-Language. */
export function requestLanguage(request: FastifyRequest): Language {
  const body = request.body as { lng?: unknown } | undefined;
  const fromBody = typeof body?.lng === 'string' ? body.lng.toLowerCase().split('-')[0] : undefined;
  if (isLanguage(fromBody)) return fromBody;
  const fromCookie = readCookie(request, 'i18next')?.toLowerCase().split('-')[0];
  if (isLanguage(fromCookie)) return fromCookie;
  return matchLanguage(request.headers['accept-language']) ?? FALLBACK_LANGUAGE;
}
