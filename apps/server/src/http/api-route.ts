import { ErrorBodySchema } from '@meetcast/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** Who may call: anyone, a signed-in user, or an administrator. */
export type RouteAuth = 'none' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Refuses the request (401, or 403 for a non-administrator) unless its token allows `level`. */
    authenticateRequest(request: FastifyRequest, level: Exclude<RouteAuth, 'none'>): Promise<unknown>;
  }
}

interface ApiRouteDefinition<Input extends z.ZodType, Output extends z.ZodType> {
  /** The file-style name of the call, for example `login.php`. */
  name: string;
  /**
   * Checked before the fields are validated: a call without a valid token answers 401 (403 for a
   * non-administrator on an admin call) whatever else it sent, as the contract says.
   */
  auth?: RouteAuth;
  tag: string;
  summary: string;
  input: Input;
  output: Output;
  /** `reply` is there for the few calls that set cookies; the others ignore it. */
  handler: (body: z.infer<Input>, request: FastifyRequest, reply: FastifyReply) => Promise<z.infer<Output>>;
}

/** A contract call: POST /api/{name}, input and output validated by their zod schemas. */
export function apiRoute<Input extends z.ZodType, Output extends z.ZodType>(
  app: FastifyInstance,
  definition: ApiRouteDefinition<Input, Output>,
) {
  const level = definition.auth;
  app.post(
    `/api/${definition.name}`,
    {
      schema: {
        tags: [definition.tag],
        summary: definition.summary,
        ...(level === 'user' || level === 'admin'
          ? { security: [{ token: level === 'admin' ? ['administrator'] : [] }] }
          : {}),
        body: definition.input,
        response: {
          200: definition.output,
          '4xx': ErrorBodySchema,
          '5xx': ErrorBodySchema,
        },
      },
      preValidation: level && level !== 'none' ? (request) => app.authenticateRequest(request, level) : undefined,
    },
    (request, reply) => definition.handler(request.body as z.infer<Input>, request, reply),
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
