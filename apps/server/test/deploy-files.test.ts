import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const UNIT = join(ROOT, 'deploy/systemd/meetcast.service');
const CADDYFILE = join(ROOT, 'deploy/Caddyfile');
const available = (command: string, versionArg = '--version') => spawnSync(command, [versionArg]).status === 0;

/** A unit file's `[Service]` settings; a key set twice keeps every value, in order (Environment=). */
function serviceSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const line of text.split('\n').map((raw) => raw.trim())) {
    if (!line || line.startsWith('#')) continue;
    const header = line.match(/^\[(\w+)\]$/);
    if (header) {
      section = header[1]!;
      continue;
    }
    const setting = line.match(/^(\w+)=(.*)$/);
    if (!setting) throw new Error(`not a setting: ${line}`);
    if (section !== 'Service') continue;
    settings.set(setting[1]!, [...(settings.get(setting[1]!) ?? []), setting[2]!]);
  }
  return settings;
}

describe('deploy/systemd/meetcast.service', () => {
  const unit = readFileSync(UNIT, 'utf8');
  const service = serviceSettings(unit);
  const scratch = mkdtempSync(join(tmpdir(), 'meetcast-unit-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('runs the compiled server as `npm start` does, as its own user, with DATA_DIR in its state folder', () => {
    const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } })
      .scripts.start;
    expect(service.get('ExecStart')).toEqual([start.replace(/^node /, '/usr/bin/node ')]);
    expect(service.get('User')).toEqual(['meetcast']);
    expect(service.get('StateDirectory')).toEqual(['meetcast']);
    expect(service.get('Environment')).toContain('DATA_DIR=%S/meetcast');
    expect(service.get('StateDirectoryMode')).toEqual(['0700']);
  });

  it('restarts on failure and keeps the managed children in its cgroup; hardening leaves the JIT alone', () => {
    expect(service.get('Restart')).toEqual(['on-failure']);
    expect(service.get('KillMode')).toEqual(['control-group']);
    expect(service.get('NoNewPrivileges')).toEqual(['yes']);
    expect(service.get('ProtectSystem')).toEqual(['strict']);
    // V8 (the server) and Chromium (the composer) write the machine code they run.
    expect(service.has('MemoryDenyWriteExecute')).toBe(false);
  });

  it.skipIf(!available('systemd-analyze'))('passes systemd-analyze verify without a warning', () => {
    // The unit names Debian's /usr/bin/node; the copy names the node running this test.
    const copy = join(scratch, 'meetcast.service');
    writeFileSync(copy, unit.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `));
    const verify = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
    expect(`${verify.stdout}${verify.stderr}`).not.toContain(copy);
    expect(verify.status).toBe(0);
  });
});

describe('deploy/Caddyfile', () => {
  // Caddy keeps its certificates and settings under XDG_DATA_HOME and XDG_CONFIG_HOME.
  const home = mkdtempSync(join(tmpdir(), 'meetcast-caddy-'));
  const env = { ...process.env, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it.skipIf(!available('caddy', 'version'))(
    'is a valid Caddy configuration proxying to the server’s default port',
    () => {
      const validate = spawnSync('caddy', ['validate', '--adapter', 'caddyfile', '--config', CADDYFILE], {
        encoding: 'utf8',
        env,
      });
      expect(validate.status, validate.stderr).toBe(0);
      const adapted = spawnSync('caddy', ['adapt', '--adapter', 'caddyfile', '--config', CADDYFILE], {
        encoding: 'utf8',
        env,
      });
      expect(adapted.stdout).toContain('"dial":"127.0.0.1:3000"');
    },
  );
});
