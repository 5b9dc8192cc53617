import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Only two calls read a cookie and one sets one, so cookies are parsed when asked for rather than
 * by a hook on every request (which, with its reply hook, cost a few per cent of a small call).
 */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header?.includes(name)) return undefined;
  return parseCookie(header)[name];
}

export interface CookieOptions {
  path: string;
  httpOnly: boolean;
  sameSite: 'lax' | 'strict';
  secure: boolean;
  maxAge?: number;
}

export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions) {
  reply.header('set-cookie', stringifySetCookie({ name, value, ...options }));
}

export function clearCookie(reply: FastifyReply, name: string, options: CookieOptions) {
  reply.header('set-cookie', stringifySetCookie({ name, value: '', ...options, maxAge: 0, expires: new Date(0) }));
}
