import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Seals the secrets Meetcast keeps for platforms (OAuth tokens, stream keys) with AES-256-GCM, so a
 * copy of the database alone reveals none of them. The key is SECRETS_KEY, or one generated into
 * DATA_DIR on first start and reused after.
 */

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';
export const SECRETS_KEY_FILE = 'secrets.key';

/**
 * The 32 bytes of a key written as 64 hex digits or as base64 (either alphabet, padding optional);
 * undefined when the text is neither.
 */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[\da-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

/** The box cannot open a sealed value: it was sealed under another key or was altered. */
export class SecretsUnreadableError extends Error {
  constructor() {
    super('sealed value cannot be opened with this SECRETS_KEY');
  }
}

export class SecretsBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`a secrets key has ${KEY_BYTES} bytes`);
    this.key = Buffer.from(key);
  }

  /**
   * A MAC of `text`, keyed per `purpose` (viewer grants, live-stream addresses): 32 hex digits that
   * every process of the installation computes alike and nobody without the key can forge.
   */
  sign(purpose: string, text: string): string {
    const purposeKey = createHmac('sha256', this.key).update(`meetcast:${purpose}`).digest();
    return createHmac('sha256', purposeKey).update(text).digest('hex').slice(0, 32);
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, each part base64url: a fresh IV per value, so equal secrets differ. */
  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new SecretsUnreadableError();
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretsUnreadableError();
    }
  }
}

/**
 * The key in `${dataDir}/secrets.key`, written (mode 0600) when missing. Two processes starting at
 * once on one DATA_DIR both end up with the file the first one wrote: the write is exclusive.
 */
export function readOrCreateKeyFile(dataDir: string): Buffer {
  const path = join(dataDir, SECRETS_KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(path, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = parseSecretsKey(readFileSync(path, 'utf8'));
  if (!key) throw new Error(`${path} does not hold a 32-byte key (64 hex digits or base64)`);
  // A file copied in with looser rights is tightened: it unlocks every stored platform token.
  chmodSync(path, 0o600);
  return key;
}

const boxes = new Map<string, SecretsBox>();

/** One box per configuration, shared by the routes and the drivers of a process. */
export function secretsBoxFor(config: { dataDir: string; streaming: { secretsKey: string | undefined } }): SecretsBox {
  const cacheKey =
    config.streaming.secretsKey !== undefined ? `key:${config.streaming.secretsKey}` : `dir:${config.dataDir}`;
  let box = boxes.get(cacheKey);
  if (!box) {
    const key = config.streaming.secretsKey !== undefined ? parseSecretsKey(config.streaming.secretsKey) : undefined;
    if (config.streaming.secretsKey !== undefined && !key) throw new Error('SECRETS_KEY is not a 32-byte key');
    box = new SecretsBox(key ?? readOrCreateKeyFile(config.dataDir));
    boxes.set(cacheKey, box);
  }
  return box;
}
