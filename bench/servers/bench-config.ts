import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@meetcast/server';

/**
 * What every bench server runs with: loopback on a free port, a fresh embedded database in its own
 * folder (no PostgreSQL, no Redis), and rate limits out of the way of a bench's many requests.
 * `settings` adds to or overrides these, as environment variables would.
 */
export function benchConfig(settings: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-bench-'));
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    RATE_LIMIT_MULTIPLIER: '1000',
    ...settings,
  });
  return { config, dataDir };
}
