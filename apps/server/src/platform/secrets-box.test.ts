import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  parseSecretsKey,
  readOrCreateKeyFile,
  SecretsBox,
  secretsBoxFor,
  SecretsUnreadableError,
} from './secrets-box.js';

const folders: string[] = [];
function freshFolder() {
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-secrets-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('SecretsBox', () => {
  it('opens what it sealed, and never shows the secret in the sealed text', () => {
    const box = new SecretsBox(randomBytes(32));
    const secret = 'ya29.a0-access-token-ünïcødé';
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret);
    expect(sealed).toMatch(/^v1\./);
    expect(box.open(sealed)).toBe(secret);
    // A fresh IV each time: equal secrets are not recognisable in the table.
    expect(box.seal(secret)).not.toBe(sealed);
  });

  it('refuses a value sealed under another key or altered', () => {
    const box = new SecretsBox(randomBytes(32));
    const sealed = box.seal('live_123_key');
    expect(() => new SecretsBox(randomBytes(32)).open(sealed)).toThrow(SecretsUnreadableError);
    const parts = sealed.split('.');
    const last = parts[3] ?? '';
    parts[3] = (last[0] === 'A' ? 'B' : 'A') + last.slice(1);
    expect(() => box.open(parts.join('.'))).toThrow(SecretsUnreadableError);
    expect(() => box.open('plain text')).toThrow(SecretsUnreadableError);
  });

  it('reads keys written in hex or base64 and refuses other lengths', () => {
    const bytes = randomBytes(32);
    expect(parseSecretsKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseSecretsKey(bytes.toString('base64'))).toEqual(bytes);
    expect(parseSecretsKey(bytes.toString('base64url'))).toEqual(bytes);
    expect(parseSecretsKey(` ${bytes.toString('hex')}\n`)).toEqual(bytes);
    expect(parseSecretsKey(randomBytes(16).toString('hex'))).toBeUndefined();
    expect(parseSecretsKey(randomBytes(33).toString('base64'))).toBeUndefined();
    expect(parseSecretsKey('not a key at all')).toBeUndefined();
  });
});

describe('the key file', () => {
  it('is generated with mode 0600 on first start and reused after', () => {
    const dataDir = join(freshFolder(), 'nested', 'data');
    const first = readOrCreateKeyFile(dataDir);
    const path = join(dataDir, 'secrets.key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readOrCreateKeyFile(dataDir)).toEqual(first);
    expect(parseSecretsKey(readFileSync(path, 'utf8'))).toEqual(first);
    const sealed = new SecretsBox(first).seal('kept across restarts');
    expect(new SecretsBox(readOrCreateKeyFile(dataDir)).open(sealed)).toBe('kept across restarts');
  });

  it('refuses a key file that holds no key', () => {
    const dataDir = freshFolder();
    writeFileSync(join(dataDir, 'secrets.key'), 'garbage\n');
    expect(() => readOrCreateKeyFile(dataDir)).toThrow(/32-byte key/);
  });

  it('uses SECRETS_KEY when it is given, and writes no file then', () => {
    const dataDir = freshFolder();
    const key = randomBytes(32);
    const box = secretsBoxFor({ dataDir, streaming: { secretsKey: key.toString('hex') } });
    expect(new SecretsBox(key).open(box.seal('x'))).toBe('x');
    expect(() => statSync(join(dataDir, 'secrets.key'))).toThrow();
  });
});
