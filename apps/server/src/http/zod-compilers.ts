import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import fastJsonStringify, { type AnySchema } from 'fast-json-stringify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Request parts are checked by their zod schemas. A call without a body is a call with no fields,
 * so that a missing token answers 401 and not 400 (and no hook runs on every request for that).
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  return route.httpPart === 'body' ? (data) => validate(data ?? {}) : validate;
};

/**
 * Answers are written by a serializer compiled from the JSON Schema of their zod output schema:
 * only the contract's fields leave the server, a missing required field is an error, and no
 * generic zod parse runs per answer (with hundreds of schemas it went megamorphic and cost ~5% of
 * a small call).
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) =>
  fastJsonStringify(z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as AnySchema);
