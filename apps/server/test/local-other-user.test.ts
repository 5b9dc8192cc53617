import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../src/media/managed-janus.js';
import { stopChild } from '../src/platform/managed-child.js';
import { ProcessLedger } from '../src/streaming/composer/child-processes.js';
import { claimDisplayNumber, VirtualScreen } from '../src/streaming/composer/virtual-screen.js';
import { MailSink } from '@meetcast/testkit/mail-sink';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { startLayoutPage } from './streaming/composer-processes.js';

/** Runs a command as `nobody`, a user who shares this machine and nothing else with the server. */
function asNobody(command: string, args: string[], options: { input?: string; timeoutMs?: number } = {}) {
  const result = spawnSync(
    'setpriv',
    ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', command, ...args],
    // Its working folder must be one it may enter; the server's environment is not its to inherit.
    { cwd: '/', env: { PATH: process.env.PATH }, input: options.input, timeout: options.timeoutMs ?? 15_000 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.toString('utf8') };
}

/** Every file and folder under `root` (walked as the server's own user), the root itself first. */
function everyEntry(root: string): string[] {
  const entries = [root];
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    return entries; // Removed meanwhile (a live broadcast's segments come and go).
  }
  for (const name of names) {
    const path = join(root, name);
    if (lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) entries.push(...everyEntry(path));
    else entries.push(path);
  }
  return entries;
}

/**
 * What under `root` has a mode bit for group or others, as "mode path". Sockets and symbolic links
 * aside: their own modes grant nothing, the folders they are in do.
 */
function openToOthers(root: string): string[] {
  return everyEntry(root).flatMap((path) => {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink() || stat.isSocket() || (stat.mode & 0o077) === 0) return [];
    return [`${(stat.mode & 0o777).toString(8)} ${path.slice(root.length)}`];
  });
}

async function until<T>(what: string, read: () => T | Promise<T>, ms = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Another user of the server's machine, after a real broadcast with a recording (the real server
 * process, its composer, its embedded database): DATA_DIR lets them read or write nothing, the
 * composer's screen and sound server refuse them, and no stream key shows in the process list or
 * the server's log. The tests run as root, so `nobody` is a genuinely other user.
 */
describe('a local other user', () => {
  let parent = '';
  let dataDir = '';
  const streamKey = `secret-key-${randomBytes(8).toString('hex')}`;
  const mail = new MailSink();
  let layoutPage: Server;
  let receiver: RtmpReceiver;
  let server: ChildProcess | undefined;
  let log = '';
  let baseUrl = '';

  const post = async <T>(name: string, fields: Record<string, string | number>) => {
    const response = await fetch(`${baseUrl}/api/${name}`, {
      method: 'POST',
      body: new URLSearchParams(Object.entries(fields).map(([key, value]): [string, string] => [key, String(value)])),
    });
    const body = (await response.json()) as { message: string; data?: T };
    if (!response.ok) throw new Error(`${name}: ${response.status} ${body.message}`);
    return body.data as T;
  };

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'meetcast-other-user-'));
    // DATA_DIR's parents let everyone through, as /var/lib does: only DATA_DIR itself may stop them.
    chmodSync(parent, 0o755);
    dataDir = join(parent, 'data');
    // An administrator's `mkdir` leaves DATA_DIR open to everyone; the server must close it.
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const smtpUrl = await mail.start();
    layoutPage = await startLayoutPage();
    receiver = new RtmpReceiver(await freePort(), 'live', join(parent, 'received')).start();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        SMTP_URL: smtpUrl,
        LOG_LEVEL: 'info',
        RATE_LIMIT_MULTIPLIER: '100',
        COMPOSER_WORKER: 'local',
        COMPOSER_SPARES: '0',
        COMPOSER_PAGE_URL: `http://127.0.0.1:${(layoutPage.address() as AddressInfo).port}`,
        // The test's RTMP receiver listens on loopback, which streams may not reach otherwise.
        RTMP_ALLOW_PRIVATE: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [server.stdout, server.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (text: string) => (log += text));
    }
    // tsx, PGlite's first start (initdb) and the migrations: seconds on an idle machine, minutes on a crowded one.
    await until(
      'the server',
      async () => server?.exitCode === null && (await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.ok,
      210_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; its log ends: ${log.slice(-2000)}`);
    });
  }, 240_000);

  afterAll(async () => {
    await stopChild(server, 10_000);
    await receiver?.stop();
    await mail.close();
    layoutPage?.close();
    if (parent) rmSync(parent, { recursive: true, force: true });
  });

  it('reads and writes nothing of DATA_DIR, and neither watches nor hears a broadcast', async () => {
    const email = `other-user.${process.pid}.${Date.now()}@example.com`;
    const before = mail.messages.length;
    await post('signup.php', { username: 'Private Host', email, password: 'correct horse battery' });
    const confirmed = await post<{ token: string }>('confirm-signup.php', {
      email,
      code: await mail.codeFor(email, before),
    });
    const token = confirmed.token;
    // An upload, so that DATA_DIR/uploads holds a file too.
    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('token', token);
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'me.jpg');
    expect((await fetch(`${baseUrl}/api/upload-avatar.php`, { method: 'POST', body: form })).status).toBe(200);
    const connection = await post<{ data: { id: number } }>('add-rtmp-destination.php', {
      token,
      name: 'Own server',
      url: receiver.url,
      stream_key: streamKey,
    });
    const slug = `other-user-${randomBytes(4).toString('hex')}`;
    await post('add-instant-meeting.php', { token, name: 'Private talk', slug });
    await post('start-broadcast.php', {
      token,
      meetId: slug,
      destinations: JSON.stringify([{ connection_id: connection.data.id }]),
      record: 1,
    });

    // Live: the destination receives the encode and the recording is being written.
    await until('the destination receiving the broadcast', () => receiver.bytes() > 100_000, 90_000);
    const recordings = join(dataDir, 'recordings');
    await until('the recording being written', () => existsSync(recordings) && readdirSync(recordings).length > 0);
    const workers = readdirSync(join(dataDir, 'composers'));
    const stage = workers
      .flatMap((worker) =>
        readdirSync(join(dataDir, 'composers', worker)).map((name) => join(dataDir, 'composers', worker, name)),
      )
      .find((path) => /\/stage-\d+$/.test(path));
    expect(stage).toBeDefined();
    const display = `:${/stage-(\d+)$/.exec(stage!)![1]}`;
    const sound = join(stage!, 'pulse', 'native');

    // The screen: its socket in /tmp/.X11-unix is open to everyone, so the X server's own
    // authorization has to refuse them.
    const grab = asNobody('ffmpeg', [
      '-hide_banner',
      '-f',
      'x11grab',
      '-i',
      display,
      '-frames:v',
      '1',
      '-f',
      'null',
      '-',
    ]);
    expect.soft(grab.status, grab.stderr).not.toBe(0);
    expect.soft(grab.stderr).toMatch(/Authorization required|Cannot open display/);
    // The same ffmpeg is theirs to run: it is the display that refuses.
    const control = asNobody('ffmpeg', [
      '-hide_banner',
      '-f',
      'lavfi',
      '-i',
      'testsrc',
      '-frames:v',
      '1',
      '-f',
      'null',
      '-',
    ]);
    expect(control.status, control.stderr).toBe(0);

    // The sound server: its socket's folder is closed to them, and a way to the socket itself (a hard
    // link in a folder everyone may enter) meets a server that refuses other users.
    const byPath = asNobody('pactl', [`--server=unix:${sound}`, 'info']);
    expect.soft(byPath.status, byPath.stderr).not.toBe(0);
    const opening = join(parent, 'opening');
    mkdirSync(opening, { mode: 0o755 });
    chmodSync(opening, 0o755);
    linkSync(sound, join(opening, 'native'));
    const byLink = asNobody('pactl', [`--server=unix:${join(opening, 'native')}`, 'info']);
    expect.soft(byLink.status, byLink.stderr).not.toBe(0);
    const listened = asNobody(
      'parec',
      [`--server=unix:${join(opening, 'native')}`, '--device=composer.monitor', '--raw'],
      { timeoutMs: 4000 },
    );
    expect.soft(listened.stdout.length, 'bytes of the meeting’s sound recorded by another user').toBe(0);
    // Refused, it exits with an error; recording, it was stopped (and parec ends well when told to).
    expect.soft([0, null], listened.stderr).not.toContain(listened.status);
    rmSync(opening, { recursive: true, force: true });

    // While live too: the composer's folder (Chromium's profile, the X cookie), the live HLS segments.
    expect.soft(openToOthers(dataDir), 'modes for group or others, while live').toEqual([]);

    // No stream key in the process list (ffmpeg's command lines), as anyone on the machine sees it.
    const processes = asNobody('ps', ['-eo', 'args']);
    expect(processes.status).toBe(0);
    expect.soft(processes.stdout.toString('utf8'), 'a stream key in `ps -eo args`').not.toContain(streamKey);

    await post('stop-broadcast.php', { token, meetId: slug });
    await until(
      'the recording',
      async () =>
        (await post<{ data: { recording: unknown } | null }>('get-broadcast.php', { token, meetId: slug })).data
          ?.recording,
      60_000,
    );
    // The stage is closed with the broadcast (no spare is kept): what remains is what stays on disk.
    await until('the composer stage to close', () => !existsSync(stage!));

    const entries = everyEntry(dataDir);
    expect(entries.some((path) => path.includes('/pglite/'))).toBe(true);
    expect(readdirSync(recordings).some((name) => name.endsWith('.mp4'))).toBe(true);
    expect(entries.some((path) => path.includes('/uploads/avatars/'))).toBe(true);
    // As the other user: nothing under DATA_DIR can be read, written or entered.
    const probe = asNobody(
      'sh',
      [
        '-c',
        'while IFS= read -r path; do [ -r "$path" ] && echo "readable $path"; [ -w "$path" ] && echo "writable $path"; [ -x "$path" ] && [ -d "$path" ] && echo "enterable $path"; done; exit 0',
      ],
      { input: `${entries.join('\n')}\n` },
    );
    expect(probe.status, probe.stderr).toBe(0);
    expect.soft(probe.stdout.toString('utf8').split('\n').filter(Boolean)).toEqual([]);
    // And were DATA_DIR opened again (a backup user, a careless chmod), the files inside stay private.
    expect.soft(openToOthers(dataDir), 'modes for group or others, after the broadcast').toEqual([]);

    expect.soft(log, 'a stream key in the server log').not.toContain(streamKey);
    expect(log).toMatch(/composer/);
    expect(log).toMatch(/DATA_DIR was open to other users; it is now 0700/);
  }, 420_000);
});

describe('a composer’s screen and sound card', () => {
  it('answer the server’s user with the cookie and credentials it holds, and refuse anyone else', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'meetcast-screen-'));
    // Open to everyone on purpose: what refuses another user here is the servers' own authorization.
    chmodSync(folder, 0o755);
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const stage = join(folder, 'stage');
    const screen = new VirtualScreen(new ProcessLedger(stage, 'processes'), stage, claimDisplayNumber(), {
      width: 320,
      height: 240,
    });
    try {
      await screen.start();
      const grab = (env: NodeJS.ProcessEnv) =>
        spawnSync(
          'ffmpeg',
          ['-hide_banner', '-f', 'x11grab', '-i', screen.display, '-frames:v', '1', '-f', 'null', '-'],
          {
            env: { PATH: process.env.PATH, ...env },
            timeout: 15_000,
          },
        );
      expect(grab({ XAUTHORITY: screen.xauthority }).status).toBe(0);
      expect(grab({ XAUTHORITY: join(folder, 'no-such-file') }).stderr.toString()).toMatch(/Authorization required/);
      const byNobody = asNobody('ffmpeg', [
        '-hide_banner',
        '-f',
        'x11grab',
        '-i',
        screen.display,
        '-frames:v',
        '1',
        '-f',
        'null',
        '-',
      ]);
      expect(byNobody.stderr).toMatch(/Authorization required/);

      const info = (server: string) => spawnSync('pactl', [`--server=${server}`, 'info'], { timeout: 15_000 });
      expect(info(screen.pulseServer).status).toBe(0);
      const socket = join(folder, 'sound-socket');
      linkSync(screen.pulseServer.replace(/^unix:/, ''), socket);
      const refused = asNobody('pactl', [`--server=unix:${socket}`, 'info']);
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toMatch(/Access denied/);
    } finally {
      await screen.stop();
    }
  }, 60_000);
});
