import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { spawnBound } from '../../platform/bound-children.js';
import { backoffDelay, type BackoffSchedule } from '../../platform/backoff.js';
import { writeCoturnConfig } from './coturn-config.js';

const TURN_RESTARTS: BackoffSchedule = { firstMs: 250, maxMs: 30_000 };
const START_TIMEOUT_MS = 5000;

export interface ManagedTurnOptions {
  dataDir: string;
  log: FastifyBaseLogger;
  binary: string;
  port: number;
  relayPortRange: string;
  realm: string;
  externalIp: string | undefined;
  tls: { port: number; cert: string; key: string } | undefined;
  ownAddresses: string[];
}

function tcpAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A coturn left behind by a server process killed outright is ended before a new one starts. */
function killStale(folder: string) {
  const pidFile = join(folder, 'turnserver.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 1) return;
  try {
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (commandLine.includes('turnserver') && commandLine.includes(folder)) process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/**
 * The coturn this server starts itself when TURN_URL is not set (ADR 035), as it does Janus: a
 * generated configuration under DATA_DIR with a secret of this process's own, bound to this process
 * (it dies with it), started on first use and restarted with back-off when it dies.
 */
export class ManagedTurn {
  /** Shared with coturn only; credentials handed to pages are made from it and expire. */
  readonly secret = randomBytes(32).toString('base64url');
  private child: ChildProcess | undefined;
  private starting: Promise<void> | undefined;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private lastFailure: string | undefined;

  constructor(private readonly options: ManagedTurnOptions) {}

  get running(): boolean {
    return this.child !== undefined && !this.starting;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get failure(): string | undefined {
    return this.lastFailure;
  }

  ensureStarted(): Promise<void> {
    if (this.child && !this.starting) return Promise.resolve();
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(): Promise<void> {
    if (this.stopping) throw new Error('turn is shutting down');
    const folder = join(this.options.dataDir, 'turn');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const config = writeCoturnConfig({ folder, secret: this.secret, ...this.options });
    killStale(folder);
    const child = spawnBound(this.options.binary, ['-c', config], { stdio: 'ignore' });
    const spawned = await new Promise<Error | undefined>((resolve) => {
      child.once('spawn', () => resolve(undefined));
      child.once('error', (error) => resolve(error));
    });
    if (spawned) {
      this.lastFailure = `cannot start ${this.options.binary}: ${spawned.message}`;
      this.options.log.error({ err: spawned }, `turn: ${this.lastFailure}; browsers get no TURN relay`);
      throw new Error(this.lastFailure);
    }
    this.child = child;
    let exited = false;
    child.once('exit', (code, signal) => {
      exited = true;
      if (this.child !== child) return;
      this.child = undefined;
      if (this.stopping) return;
      this.failures += 1;
      this.options.log.error({ code, signal }, 'turn: coturn exited; restarting');
      this.scheduleRestart();
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await tcpAnswers(this.options.port))) {
      if (exited || Date.now() > deadline) {
        this.lastFailure = `coturn did not come up on port ${this.options.port} (see ${join(folder, 'turn.log')})`;
        this.options.log.error(`turn: ${this.lastFailure}`);
        if (!exited) child.kill('SIGKILL');
        this.child = undefined;
        throw new Error(this.lastFailure);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    this.lastFailure = undefined;
    this.failures = 0;
    this.options.log.info({ pid: child.pid, port: this.options.port }, 'turn: coturn started');
  }

  private scheduleRestart() {
    if (this.restartTimer) return;
    this.restartTimer = setTimeout(
      () => {
        this.restartTimer = undefined;
        this.ensureStarted().catch(() => {
          this.failures += 1;
          this.scheduleRestart();
        });
      },
      backoffDelay(this.failures, TURN_RESTARTS),
    );
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
