import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boundCommand, boundLauncherScript, spawnBound } from './bound-children.js';

describe('bound children', () => {
  it('start a program through setpriv, asking the kernel to kill it with its parent', () => {
    const [file, args] = boundCommand('sleep', ['5']);
    expect(file).toMatch(/\/setpriv$/);
    expect(args).toEqual(['--pdeathsig', 'KILL', '--', expect.stringMatching(/\/sleep$/), '5']);
  });

  it('report a missing program as spawn did (ENOENT), not as a child that exits', async () => {
    const child = spawnBound('no-such-program-meetcast', []);
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once('error', resolve));
    expect(error.code).toBe('ENOENT');
  });

  it('write a launcher script that passes its arguments through unchanged, odd ones too', () => {
    const folder = mkdtempSync(join(tmpdir(), "bound 'launcher' "));
    const launcher = join(folder, 'echo');
    writeFileSync(launcher, boundLauncherScript('printf'));
    chmodSync(launcher, 0o755);
    const output = execFileSync(launcher, ['%s|', "it's", 'two words', '$HOME']).toString();
    expect(output).toBe("it's|two words|$HOME|");
  });
});
