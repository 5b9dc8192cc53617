// One of the push bench's two server processes on a shared PostgreSQL database and Redis (from
// BENCH_DATABASE_URL, BENCH_REDIS_URL, BENCH_REDIS_PREFIX). With BENCH_ROLE=first it makes the host and
// the live public meeting and prints {port, slug, token, pid}; otherwise it serves and prints {port, pid}.
import type { AddressInfo } from 'node:net';
import { buildApp } from '@meetcast/server';
import { benchConfig } from './bench-config.js';
import { serveLiveMeeting } from './live-meeting.js';

const settings = {
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
  REDIS_URL: process.env.BENCH_REDIS_URL ?? '',
  REDIS_PREFIX: process.env.BENCH_REDIS_PREFIX ?? 'bench-push',
};

if (process.env.BENCH_ROLE === 'first') {
  await serveLiveMeeting('Broadcast push bench', `push-bench-${process.pid}`, undefined, settings);
} else {
  const { config } = benchConfig({ LOG_LEVEL: 'silent', COMPOSER_WORKER: 'off', COMPOSER_SPARES: '0', ...settings });
  const { app } = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port, pid: process.pid }));
}
