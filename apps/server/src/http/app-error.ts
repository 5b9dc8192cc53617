import type { MessageKey, MessageParams } from '../i18n/messages.js';

/** A client-facing failure: an HTTP status and a translatable message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 429 | 502 | 503,
    readonly key: MessageKey,
    readonly params: MessageParams = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(key);
  }
}

export const badRequest = (key: MessageKey, params?: MessageParams) => new AppError(400, key, params);
export const unauthorized = () => new AppError(401, 'errors.invalid_token');
export const forbidden = (key: MessageKey = 'errors.forbidden') => new AppError(403, key);
export const notFound = (key: MessageKey = 'errors.not_found') => new AppError(404, key);
/** A thing that existed and is over (an ended meeting). */
export const gone = (key: MessageKey) => new AppError(410, key);
/** A dependency (the media server) is not available right now. */
export const unavailable = (key: MessageKey) => new AppError(503, key);
export const conflict = (key: MessageKey, params?: MessageParams) => new AppError(409, key, params);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(
    429,
    'errors.rate_limited',
    { count: retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );

/**
 * A shared dependency (Redis) is down for a moment: 503 with Retry-After, so clients and balancers
 * back off instead of treating it as the caller's fault.
 */
export const temporarilyUnavailable = (retryAfterSeconds = 5) =>
  new AppError(503, 'errors.temporarily_unavailable', {}, { 'retry-after': String(retryAfterSeconds) });
