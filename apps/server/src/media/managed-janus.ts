import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import { spawnBound } from '../platform/bound-children.js';
import { writeJanusConfig } from './janus-config.js';
import { backoffDelay, type BackoffSchedule } from '../platform/backoff.js';
import { publicAddressFromUrl } from './public-address.js';

/** A Janus that keeps crashing is started again less and less often, at least every 30 s. */
const JANUS_RESTARTS: BackoffSchedule = { firstMs: 250, maxMs: 30_000 };

export interface ManagedJanusOptions {
  dataDir: string;
  log: FastifyBaseLogger;
  binary?: string;
  rtpPortRange: string;
  /** JANUS_NAT_1_1_MAPPING or PUBLIC_IP; unset: PUBLIC_URL's host when it is public and not ours. */
  nat11Mapping: string | undefined;
  publicUrl: string;
  /** Given secrets instead of random ones: a test runs instances it names in JANUS_URL with one secret. */
  secrets?: { apiSecret: string; adminKey: string };
}

/** Asks the kernel for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function portAnswers(port: number, apiSecret: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, 'janus-protocol');
    const done = (ok: boolean) => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      resolve(ok);
    };
    socket.once('open', () =>
      socket.send(JSON.stringify({ janus: 'info', transaction: 'ready', apisecret: apiSecret })),
    );
    socket.once('message', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A Janus left behind by a server process that was killed outright is ended before a new one starts. */
function killStale(folder: string) {
  const pidFile = join(folder, 'janus.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 1) return;
  try {
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (commandLine.includes('janus') && commandLine.includes(folder)) process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/**
 * The Janus this server starts itself when JANUS_URL is not set: a generated configuration under
 * DATA_DIR, started on first use, restarted with back-off when it dies. `restarted` fires after a
 * restart so that live rooms can be created again.
 */
export class ManagedJanus extends EventEmitter<{ restarted: [url: string]; exited: [] }> {
  readonly adminKey: string;
  readonly apiSecret: string;
  private child: ChildProcess | undefined;
  private port: number | undefined;
  private starting: Promise<string> | undefined;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private lastFailure: string | undefined;

  constructor(private readonly options: ManagedJanusOptions) {
    super();
    this.adminKey = options.secrets?.adminKey ?? randomBytes(24).toString('base64url');
    this.apiSecret = options.secrets?.apiSecret ?? randomBytes(24).toString('base64url');
  }

  get url(): string | undefined {
    return this.child && this.port ? `ws://127.0.0.1:${this.port}` : undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Why the last start failed, for logs and health answers. */
  get failure(): string | undefined {
    return this.lastFailure;
  }

  /** Starts Janus if it is not running; resolves with its WebSocket URL. */
  ensureStarted(): Promise<string> {
    if (this.url && !this.starting) return Promise.resolve(this.url);
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(): Promise<string> {
    if (this.stopping) throw new Error('janus is shutting down');
    // Keep the port across restarts so that the rooms' recorded address stays right.
    const port = this.port ?? (await freePort());
    const folder = join(this.options.dataDir, 'janus');
    const nat11Mapping = this.options.nat11Mapping ?? (await publicAddressFromUrl(this.options.publicUrl));
    if (nat11Mapping) this.options.log.info({ nat11Mapping }, 'media: janus announces this public address');
    const configFile = writeJanusConfig({
      folder,
      port,
      adminKey: this.adminKey,
      apiSecret: this.apiSecret,
      rtpPortRange: this.options.rtpPortRange,
      nat11Mapping,
    });
    killStale(folder);
    const binary = this.options.binary ?? 'janus';
    // Bound to this process: a server killed outright must not leave its Janus holding the rooms.
    const child = spawnBound(binary, ['-F', folder, '-C', configFile, '-o', '-N', '-L', join(folder, 'janus.log')], {
      stdio: 'ignore',
    });
    const spawned = await new Promise<Error | undefined>((resolve) => {
      child.once('spawn', () => resolve(undefined));
      child.once('error', (error) => resolve(error));
    });
    if (spawned) {
      this.lastFailure = `cannot start ${binary}: ${spawned.message}`;
      this.options.log.error(
        { err: spawned },
        `media: ${this.lastFailure}; rooms are unavailable until it is installed`,
      );
      throw new Error(this.lastFailure);
    }
    this.child = child;
    this.port = port;
    if (child.pid) writeFileSync(join(folder, 'janus.pid'), String(child.pid));
    let exitedEarly = false;
    child.once('exit', (code, signal) => {
      exitedEarly = true;
      if (this.child !== child) return;
      this.child = undefined;
      this.emit('exited');
      if (this.stopping) return;
      this.failures += 1;
      this.options.log.error({ code, signal }, 'media: janus exited; restarting');
      this.scheduleRestart();
    });
    const deadline = Date.now() + 10_000;
    while (!(await portAnswers(port, this.apiSecret))) {
      if (exitedEarly || Date.now() > deadline) {
        this.lastFailure = `janus did not come up (see ${join(folder, 'janus.log')})`;
        this.options.log.error(`media: ${this.lastFailure}`);
        if (!exitedEarly) child.kill('SIGKILL');
        // Another process may have taken the port meanwhile: pick a new one next time.
        this.port = undefined;
        throw new Error(this.lastFailure);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    this.lastFailure = undefined;
    this.options.log.info({ pid: child.pid, port }, 'media: janus started');
    return `ws://127.0.0.1:${port}`;
  }

  private scheduleRestart() {
    const delay = backoffDelay(this.failures, JANUS_RESTARTS);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.ensureStarted().then(
        (url) => {
          this.failures = 0;
          this.emit('restarted', url);
        },
        () => this.scheduleRestart(),
      );
    }, delay);
    this.restartTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.starting?.catch(() => undefined);
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}
