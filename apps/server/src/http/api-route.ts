import { ErrorBodySchema, type CallAuth } from '@meetcast/contracts';
import { calls, type CallFields, type CallName, type Calls } from '@meetcast/contracts/call-table';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { translate, type MessageKey, type MessageParams } from '../i18n/messages.js';
import { requestLanguage } from './request-language.js';

/** Who may call (the table of calls in the contracts says it for each call). */
export type RouteAuth = CallAuth;

/**
 * Who called, as the accounts feature verified them. The HTTP layer knows no account: the fields are
 * declared where sessions are (accounts/authenticate.ts), by declaration merging.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by accounts/authenticate.ts
export interface Caller {}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The caller a request's token allows at `level`: refuses it (401, or 403 for a non-administrator)
     * for 'user' and 'admin'; for 'optional', the caller when the token is valid, else nothing.
     */
    authenticateRequest(request: FastifyRequest, level: Exclude<RouteAuth, 'none'>): Promise<Caller | undefined>;
  }
}

type CallerFor<Auth extends RouteAuth> = Auth extends 'user' | 'admin'
  ? Caller
  : Auth extends 'optional'
    ? Caller | undefined
    : undefined;

/** What a handler gets besides the validated fields. */
export interface ApiCall<Auth extends RouteAuth> {
  request: FastifyRequest;
  /** For the few calls that set cookies. */
  reply: FastifyReply;
  /** The caller, verified before the fields were (see `auth`). */
  caller: CallerFor<Auth>;
  /** A message of the server's catalogue in the caller's language (the `lng` field, cookie or header). */
  t: (key: MessageKey, params?: MessageParams) => string;
}

interface ApiRouteDefinition<Name extends CallName> {
  /**
   * The file-style name of the call, for example `login.php`: its entry in the table of calls gives who
   * may call (checked before the fields are validated: a call without a valid token answers 401, 403
   * for a non-administrator on an admin call, whatever else it sent), the input and the output.
   */
  name: Name;
  tag: string;
  summary: string;
  handler: (body: CallFields<Name>, call: ApiCall<Calls[Name]['auth']>) => Promise<z.infer<Calls[Name]['output']>>;
}

/** The OpenAPI security requirement of an authenticated level (`{}`: also without a token). */
export function securityOf(level: Exclude<RouteAuth, 'none'>): Record<string, string[]>[] {
  if (level === 'optional') return [{}, { token: [] }];
  return [{ token: level === 'admin' ? ['administrator'] : [] }];
}

/** The caller each request was authenticated as, for its handler. */
const callers = new WeakMap<FastifyRequest, Caller>();

/** A contract call: POST /api/{name}, input and output validated by the zod schemas of its table entry. */
export function apiRoute<Name extends CallName>(app: FastifyInstance, definition: ApiRouteDefinition<Name>) {
  const { auth: level, input, output }: Calls[CallName] = calls[definition.name];
  app.post(
    `/api/${definition.name}`,
    {
      schema: {
        tags: [definition.tag],
        summary: definition.summary,
        ...(level === 'none' ? {} : { security: securityOf(level) }),
        body: input,
        response: {
          200: output,
          '4xx': ErrorBodySchema,
          '5xx': ErrorBodySchema,
        },
      },
      preValidation:
        level === 'none'
          ? undefined
          : async (request) => {
              const caller = await app.authenticateRequest(request, level);
              if (caller) callers.set(request, caller);
            },
    },
    (request, reply) => {
      const language = requestLanguage(request);
      return definition.handler(request.body as CallFields<Name>, {
        request,
        reply,
        caller: callers.get(request) as CallerFor<Calls[Name]['auth']>,
        t: (key, params) => translate(language, key, params),
      });
    },
  );
}

/** A success body with a payload: `{ status: 'success', message, data }`. */
export function success<T>(message: string, data: T) {
  return { status: 'success' as const, message, data };
}

/** A success body without a payload. */
export function done(message: string) {
  return { status: 'success' as const, message };
}
