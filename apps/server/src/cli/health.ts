import type { DatabaseHandle } from '@meetcast/db';
import type { AppConfig } from '../env.js';
import { ANSWER_TIMEOUT_MS, DatabaseInUseError, openCliDatabase, runningServer } from './cli-context.js';
import {
  checkBinaries,
  checkComposerSlots,
  checkDatabase,
  checkDisk,
  checkJanus,
  checkRedis,
  checkTurn,
  messageOf,
  type CheckResult,
} from './health-checks.js';

/**
 * Every check, one line each (`ok   name  figure` / `FAIL name  reason`); false when any failed.
 * Checks run side by side, each bounded by its own timeout.
 */
export async function runHealth(config: AppConfig, print: (line: string) => void): Promise<boolean> {
  const opened = await openForHealth(config);
  try {
    const results = (
      await Promise.all([
        opened.database ? guarded('database', () => checkDatabase(opened.database!)) : Promise.resolve(opened.result),
        guarded('redis', () => checkRedis(config)),
        guarded('janus', () => checkJanus(config)),
        guarded('turn', () => checkTurn(config)),
        guarded('binaries', () => checkBinaries()),
        guarded('composer', () => checkComposerSlots(config, opened.database)),
        guarded('disk', () => checkDisk(config)),
      ])
    ).flat();
    const width = Math.max(...results.map((result) => result.name.length));
    for (const result of results)
      print(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name.padEnd(width)}  ${result.detail}`);
    return results.every((result) => result.ok);
  } finally {
    await opened.database?.close();
  }
}

/** The database opened here, or (embedded and in use by the server) the server's own readiness for it. */
async function openForHealth(
  config: AppConfig,
): Promise<{ database: DatabaseHandle; result?: never } | { database: undefined; result: CheckResult }> {
  try {
    return { database: await openCliDatabase(config) };
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) {
      return { database: undefined, result: { name: 'database', ok: false, detail: messageOf(error) } };
    }
    const server = await runningServer(config);
    const ready = server
      ? await fetch(`${server}/readyz`, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) }).catch(() => undefined)
      : undefined;
    return {
      database: undefined,
      result: {
        name: 'database',
        ok: ready?.ok ?? false,
        detail: server
          ? `pglite in use by the server at ${server}: its /readyz answered ${ready?.status ?? 'nothing'}`
          : messageOf(error),
      },
    };
  }
}

async function guarded<T extends CheckResult | CheckResult[]>(name: string, check: () => Promise<T>) {
  try {
    return await check();
  } catch (error) {
    return { name, ok: false, detail: messageOf(error) } satisfies CheckResult;
  }
}
