import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, liveBroadcasts, meetings, users } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts/account-service.js';
import { hashPassword } from '../src/platform/hashing.js';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { ViewerChatClient } from './viewer-chat-helpers.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function post(baseUrl: string, name: string, fields: Record<string, string>) {
  const response = await fetch(`${baseUrl}/api/${name}`, { method: 'POST', body: new URLSearchParams(fields) });
  return { httpStatus: response.status, body: (await response.json()) as { data?: Record<string, unknown> } };
}

/** Viewers on one server process hear what is posted and decided on another (Redis adapter, shared key). */
describe('viewer chat across two server processes', () => {
  let database: TestDatabase;
  const apps: BuiltApp[] = [];
  const urls: string[] = [];
  const clients: ViewerChatClient[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const shared = {
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url!,
      REDIS_URL,
      REDIS_PREFIX: `test-${process.pid}-${Date.now()}`,
      // Several processes seal and open guests' identities with one key, as they do platform tokens.
      SECRETS_KEY: randomBytes(32).toString('hex'),
      COMPOSER_WORKER: 'off',
      COMPOSER_SPARES: '0',
    };
    for (let index = 0; index < 2; index++) {
      const built = await buildApp(
        loadConfig({ ...shared, PORT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'meetcast-chat-scale-')) }),
      );
      await built.app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(built);
      urls.push(`http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`);
    }
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    for (const built of apps) await built.app.close();
    await database.drop();
  });

  it('delivers a message posted on one process to viewers on the other, and a ban to the guest there', async () => {
    const context = apps[0]!.context;
    const host = await createAccount(
      context,
      'Scale Host',
      `scale.${Date.now()}@example.com`,
      await hashPassword('scale password'),
      'en',
    );
    await context.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, host.id));
    const hostToken = await context.sessions.create(host.id, {});
    const slug = `chat-scale-${Date.now()}`;
    const [meeting] = await context.db
      .insert(meetings)
      .values({
        hostId: host.id,
        name: 'Scale',
        slug,
        isSchedule: 0,
        isPrivate: 2,
        isPassword: 2,
        startTime: new Date(),
        endTime: new Date(Date.now() + 3600_000),
        repeat: 0,
        state: 'live',
      })
      .returning();
    await context.db.insert(liveBroadcasts).values({ meetingId: meeting!.id, state: 'live', startedAt: new Date() });

    const identity = await post(urls[0]!, 'get-viewer-chat-identity.php', {});
    const guestToken = String(identity.body.data?.viewer_token);
    const listener = new ViewerChatClient(urls[1]!, { meetId: slug, viewer_token: guestToken });
    clients.push(listener);
    await listener.connected();

    // An identity sealed by the first process is good on the second.
    const posted = await post(urls[1]!, 'post-viewer-chat.php', {
      meetId: slug,
      viewer_token: guestToken,
      display_name: 'Gus',
      text: 'from B',
    });
    expect(posted.httpStatus).toBe(200);
    const fromA = await post(urls[0]!, 'post-viewer-chat.php', { meetId: slug, token: hostToken, text: 'from A' });
    expect(fromA.httpStatus).toBe(200);
    expect(
      (await listener.next('message.created', (event) => event.message.text === 'from A')).message.author.is_host,
    ).toBe(true);

    const guestMessage = (posted.body.data?.data as { id: number }).id;
    const banned = await post(urls[0]!, 'moderate-viewer-chat.php', {
      meetId: slug,
      token: hostToken,
      id: String(guestMessage),
      action: 'ban',
    });
    expect(banned.httpStatus).toBe(200);
    expect((await listener.next('self.restricted')).is_banned).toBe(true);
    const refused = await post(urls[1]!, 'post-viewer-chat.php', {
      meetId: slug,
      viewer_token: guestToken,
      display_name: 'Gus',
      text: 'again',
    });
    expect(refused.httpStatus).toBe(403);
  });
});
