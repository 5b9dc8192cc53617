import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI description, generated from the same zod schemas that validate every call. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Meetcast API',
        version: '1.0.0',
        description:
          'Every call is a POST with form data (urlencoded or multipart) or JSON. The session token travels as the form field `token`. Every answer is `{ status, message, data? }`.',
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
