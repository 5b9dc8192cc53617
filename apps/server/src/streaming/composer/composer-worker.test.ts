import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import type { Drivers } from './broadcast-session.js';
import { ProcessLedger } from './child-processes.js';
import { ComposerWorker } from './composer-worker.js';

const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-composer-worker-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('composer worker shutdown', () => {
  // A broadcast whose encoder was still finishing when the process's shutdown deadline came left its
  // stage's Xvfb, PulseAudio and silence player running after the server had exited.
  it('kills whatever its stages still run when it closes, even a stage no broadcast holds any more', async () => {
    const context = { config: { dataDir } } as unknown as AppContext;
    const worker = new ComposerWorker(context, { drivers: {} as Drivers, cores: 2, spares: 0 });
    const ledger = new ProcessLedger(join(dataDir, 'composers', worker.id, 'stage-99'), 'processes');
    const leftover = ledger.spawn('sleep', ['600']);
    const ended = new Promise((resolve) => leftover.once('exit', (_code, signal) => resolve(signal)));

    await worker.close();

    expect(await ended).toBe('SIGKILL');
  });
});
