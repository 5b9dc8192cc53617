import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '@meetcast/db';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { translate, type MessageKey } from '../i18n/messages.js';
import { AppError } from './app-error.js';
import { requestLanguage } from './request-language.js';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

function reasonFor(issue: ValidationIssue): {
  key: MessageKey;
  params: Record<string, string | number>;
} {
  const params = issue.params;
  switch (issue.keyword) {
    case 'too_small':
      if (params.origin === 'string') {
        return Number(params.minimum) <= 1
          ? { key: 'validation.required', params: {} }
          : {
              key: 'validation.too_short',
              params: { count: Number(params.minimum) },
            };
      }
      return {
        key: 'validation.too_small',
        params: { min: Number(params.minimum) },
      };
    case 'too_big':
      return params.origin === 'string'
        ? {
            key: 'validation.too_long',
            params: { count: Number(params.maximum) },
          }
        : {
            key: 'validation.too_big',
            params: { max: Number(params.maximum) },
          };
    case 'invalid_type':
      return /received undefined/.test(issue.message ?? '')
        ? { key: 'validation.required', params: {} }
        : { key: 'validation.invalid_type', params: {} };
    case 'invalid_format':
      return params.format === 'email'
        ? { key: 'validation.invalid_email', params: {} }
        : { key: 'validation.invalid_format', params: {} };
    case 'invalid_union':
    case 'invalid_value':
      return { key: 'validation.invalid_value', params: {} };
    case 'custom':
      return issue.message === 'control_characters'
        ? { key: 'validation.control_characters', params: {} }
        : { key: 'validation.unknown', params: {} };
    default:
      return { key: 'validation.unknown', params: {} };
  }
}

function send(reply: FastifyReply, statusCode: number, message: string) {
  return reply.status(statusCode).type('application/json; charset=utf-8').send({ status: 'error', message });
}

/** One error handler: 4xx in the contract's shape with a translated message; 5xx never leaks details. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const language = requestLanguage(request);
    if (error instanceof AppError) {
      reply.headers(error.headers);
      return send(reply, error.statusCode, translate(language, error.key, error.params));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const messages = error.validation.map((issue) => {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'body';
        const reason = reasonFor(issue as ValidationIssue);
        return translate(language, 'validation.field', {
          field,
          reason: translate(language, reason.key, reason.params),
        });
      });
      return send(reply, 400, [...new Set(messages)].join('; '));
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode === 413) return send(reply, 413, translate(language, 'errors.payload_too_large'));
    if (statusCode === 415) return send(reply, 415, translate(language, 'errors.unsupported_media_type'));
    if (statusCode === 429) return send(reply, 429, translate(language, 'errors.rate_limited', { count: 60 }));
    if (statusCode >= 400 && statusCode < 500)
      return send(reply, statusCode, translate(language, 'errors.bad_request'));
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '5');
      return send(reply, 503, translate(language, 'errors.temporarily_unavailable'));
    }
    request.log.error({ err: error }, 'request failed');
    return send(reply, 500, translate(language, 'errors.internal'));
  });
}
