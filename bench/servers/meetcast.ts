// The real Meetcast server on embedded PGlite with one confirmed user; prints {port, token}.
import type { AddressInfo } from 'node:net';
import { eq, users } from '@meetcast/db';
import { buildApp, createAccount, hashPassword } from '@meetcast/server';
import { benchConfig } from './bench-config.js';

const { config } = benchConfig({ LOG_LEVEL: 'silent' });
const { app, context } = await buildApp(config);
const user = await createAccount(context, 'Bench', 'bench@example.com', await hashPassword('bench password'), 'en');
await context.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
const token = await context.sessions.create(user.id, {});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port, token }));
