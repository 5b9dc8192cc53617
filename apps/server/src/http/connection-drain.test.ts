import { connect, type AddressInfo, type Socket } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { drainConnectionsOnClose } from './connection-drain.js';

async function openSocket(port: number, request?: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  if (request) socket.write(request);
  return socket;
}

const ended = (socket: Socket) => new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));

describe('closing the HTTP server', () => {
  it('ends a socket that never carried a request at once, and a request that never ends after the grace', async () => {
    const app = Fastify();
    drainConnectionsOnClose(app);
    let isAnswering: () => void = () => undefined;
    const answering = new Promise<void>((resolve) => (isAnswering = resolve));
    app.get('/never', async () => {
      isAnswering();
      await new Promise(() => undefined);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const preconnected = await openSocket(port);
    const hanging = await openSocket(port, 'GET /never HTTP/1.1\r\nHost: x\r\n\r\n');
    await answering;
    const preconnectedEnd = ended(preconnected);
    const hangingEnd = ended(hanging);

    const started = Date.now();
    await app.close();
    const closed = Date.now();

    expect((await preconnectedEnd) - started).toBeLessThan(500);
    expect((await hangingEnd) - started).toBeGreaterThanOrEqual(1900);
    expect(closed - started).toBeLessThan(4000);
  });
});
