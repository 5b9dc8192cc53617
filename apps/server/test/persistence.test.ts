import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, users } from '@meetcast/db';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts/account-service.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';

/** The embedded path as users run it: PGlite files under DATA_DIR survive a restart. */
describe('embedded PGlite under DATA_DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-persist-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // Creating a PGlite cluster on disk takes seconds, and longer while other suites share the cores.
  it('keeps data across a restart and migrates idempotently', { timeout: 120_000 }, async () => {
    const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const first = await buildApp(config);
    await createAccount(first.context, 'Keeper', 'keeper@example.com', null, 'en');
    await first.app.close();

    const second = await buildApp(config);
    const [{ total } = { total: 0 }] = await second.context.db.select({ total: count() }).from(users);
    expect(total).toBe(1);
    const ready = await second.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    await second.app.close();
  });
});
