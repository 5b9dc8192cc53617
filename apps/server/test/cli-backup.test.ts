import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { channels, eq, liveBroadcasts, meetings, openDatabase, users } from '@meetcast/db';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

function runCli(args: string[], dataDir: string, stdin = '') {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      PORT: '1',
      LOG_LEVEL: 'silent',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('meetcast backup and restore on the embedded PGlite', () => {
  const work = mkdtempSync(join(tmpdir(), 'meetcast-backup-'));
  const source = join(work, 'source');
  const target = join(work, 'target');
  const archive = join(work, 'meetcast.tar.gz');
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it(
    'restores accounts, meetings, channels, recordings, uploads and the key into a fresh DATA_DIR',
    { timeout: 300_000 },
    async () => {
      const email = 'backed-up@example.com';
      const created = await runCli(
        ['create-admin', '--email', email, '--username', 'Backed Up'],
        source,
        'a long enough password\n',
      );
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);

      const database = await openDatabase({ dataDir: source });
      const [admin] = await database.db.select().from(users).where(eq(users.email, email));
      const [meeting] = await database.db
        .insert(meetings)
        .values({
          hostId: admin!.id,
          name: 'Kept meeting',
          slug: 'kept-meeting',
          isSchedule: 1,
          startTime: new Date(),
          endTime: new Date(),
        })
        .returning();
      await database.db.insert(channels).values({ ownerId: admin!.id, name: 'Kept channel', slug: 'kept-channel' });
      await database.db
        .insert(liveBroadcasts)
        .values({ meetingId: meeting!.id, state: 'ended', recordingFile: 'kept.mp4' });
      // While this process holds the database, a backup would copy pages being written: refused.
      const refused = await runCli(['backup', archive], source);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`in use by process ${process.pid}`);
      await database.close();

      mkdirSync(join(source, 'recordings'), { recursive: true });
      mkdirSync(join(source, 'uploads'), { recursive: true });
      writeFileSync(join(source, 'recordings', 'kept.mp4'), 'recording bytes');
      writeFileSync(join(source, 'uploads', 'avatar.png'), 'image bytes');
      writeFileSync(join(source, 'secrets.key'), 'k'.repeat(64));

      const backedUp = await runCli(['backup', archive], source);
      expect(backedUp.stderr).toBe('');
      expect(backedUp.code).toBe(0);
      const restored = await runCli(['restore', archive], target);
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      const again = await runCli(['restore', archive], target);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('restore into an empty DATA_DIR');

      expect(readFileSync(join(target, 'recordings', 'kept.mp4'), 'utf8')).toBe('recording bytes');
      expect(readFileSync(join(target, 'uploads', 'avatar.png'), 'utf8')).toBe('image bytes');
      expect(readFileSync(join(target, 'secrets.key'), 'utf8')).toBe('k'.repeat(64));
      expect(existsSync(join(target, 'pglite', 'meetcast.pid'))).toBe(false);
      const copy = await openDatabase({ dataDir: target });
      try {
        expect((await copy.db.select().from(users)).map((row) => row.email)).toEqual([email]);
        expect((await copy.db.select().from(meetings)).map((row) => row.slug)).toEqual(['kept-meeting']);
        expect((await copy.db.select().from(channels)).map((row) => row.slug)).toEqual(['kept-channel']);
        expect((await copy.db.select().from(liveBroadcasts)).map((row) => row.recordingFile)).toEqual(['kept.mp4']);
      } finally {
        await copy.close();
      }
    },
  );
});
