// A bare Fastify route that reads a form field and answers JSON: the yardstick for our endpoints.
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
  done(null, Object.fromEntries(new URLSearchParams(body as string))),
);
app.post('/bare', async (request) => ({
  status: 'success',
  message: 'ok',
  data: { token: (request.body as { token?: string }).token },
}));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port }));
