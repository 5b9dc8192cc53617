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
          'Every call is a POST with form data (urlencoded or multipart) or JSON. The session token travels as the form field `token`. Every answer is `{ status, message, data? }`. Calls marked with the `token` security scheme answer 401 without a valid token (and, with the `administrator` scope, 403 for other users) before they look at any other field.',
      },
      components: {
        securitySchemes: {
          token: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description:
              'The session token, sent as the form field `token` of the body (OpenAPI cannot name a body field here); `Authorization: Bearer` works too.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
