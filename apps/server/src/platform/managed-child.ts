import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { backoffDelay, type BackoffSchedule } from './backoff.js';
import { spawnBound } from './bound-children.js';

/** Resolves when the child exits, or after `ms` (then kills it); `signal` null lets it end by itself (stdin closed). */
export function stopChild(child: ChildProcess | undefined, ms = 3000, signal: NodeJS.Signals | null = 'SIGTERM') {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (signal) child.kill(signal);
  });
}

/**
 * A child left behind by a server process killed outright is ended before a new one starts: the
 * pid its file names, if that process is still `program` run on `folder` (a reused pid is left alone).
 */
export function killStale(pidFile: string, program: string, folder: string) {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 1) return;
  try {
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (commandLine.includes(program) && commandLine.includes(folder)) process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/** One start of a managed child: what to run, how to tell it is up, and what a caller gets once it is. */
export interface ChildLaunch<Result> {
  binary: string;
  args: string[];
  /** Whether the child answers yet; asked every 25 ms until it does or `readyWithinMs` has passed. */
  answers(): Promise<boolean>;
  readyWithinMs: number;
  /** Why it is not up, when it is not (names its log file). */
  notReady: string;
  result: Result;
}

export interface ManagedChildOptions<Result> {
  log: FastifyBaseLogger;
  /** The log lines' topic and the child's name: `media: janus exited; restarting`. */
  topic: string;
  name: string;
  /** What is missing while it cannot be started, for the log line. */
  withoutIt: string;
  restarts: BackoffSchedule;
  /** Prepares a start (configuration, port, what an earlier process left). */
  prepare(): Promise<ChildLaunch<Result>>;
  /** Called when it comes up; the child's pid is known. */
  onStarted?(child: ChildProcess): void;
  onNotReady?(): void;
  onExited?(): void;
  onRestarted?(result: Result): void;
}

/**
 * A program the server runs itself (Janus, coturn): bound to this process (it dies with it),
 * started on first use, restarted with back-off when it dies, stopped with the server.
 */
export class ManagedChild<Result> {
  private child: ChildProcess | undefined;
  private result: Result | undefined;
  private starting: Promise<Result> | undefined;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private lastFailure: string | undefined;

  constructor(private readonly options: ManagedChildOptions<Result>) {}

  /** What the running child gave when it came up; undefined while it is not running. */
  get running(): Result | undefined {
    return this.child && !this.starting ? this.result : undefined;
  }

  /** What the child will give once it is up, as soon as it is spawned (a Janus's address while it starts). */
  get spawned(): Result | undefined {
    return this.child ? this.result : undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Why the last start failed, for logs and health answers. */
  get failure(): string | undefined {
    return this.lastFailure;
  }

  ensureStarted(): Promise<Result> {
    const running = this.running;
    if (running !== undefined) return Promise.resolve(running);
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private fail(message: string): never {
    this.lastFailure = message;
    this.options.log.error(`${this.options.topic}: ${message}`);
    throw new Error(message);
  }

  private async start(): Promise<Result> {
    const { topic, name } = this.options;
    if (this.stopping) throw new Error(`${name} is shutting down`);
    const launch = await this.options.prepare();
    const child = spawnBound(launch.binary, launch.args, { stdio: 'ignore' });
    const spawned = await new Promise<Error | undefined>((resolve) => {
      child.once('spawn', () => resolve(undefined));
      child.once('error', (error) => resolve(error));
    });
    if (spawned) {
      this.lastFailure = `cannot start ${launch.binary}: ${spawned.message}`;
      this.options.log.error({ err: spawned }, `${topic}: ${this.lastFailure}; ${this.options.withoutIt}`);
      throw new Error(this.lastFailure);
    }
    this.child = child;
    this.result = launch.result;
    this.options.onStarted?.(child);
    let exited = false;
    child.once('exit', (code, signal) => {
      exited = true;
      if (this.child !== child) return;
      this.child = undefined;
      this.options.onExited?.();
      if (this.stopping) return;
      this.failures += 1;
      this.options.log.error({ code, signal }, `${topic}: ${name} exited; restarting`);
      this.scheduleRestart();
    });
    const deadline = Date.now() + launch.readyWithinMs;
    while (!(await launch.answers())) {
      if (exited || Date.now() > deadline) {
        if (!exited) child.kill('SIGKILL');
        this.child = undefined;
        this.options.onNotReady?.();
        this.fail(launch.notReady);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    this.lastFailure = undefined;
    this.options.log.info({ pid: child.pid }, `${topic}: ${name} started`);
    return launch.result;
  }

  private scheduleRestart() {
    if (this.restartTimer) return;
    this.restartTimer = setTimeout(
      () => {
        this.restartTimer = undefined;
        this.ensureStarted().then(
          (result) => {
            this.failures = 0;
            this.options.onRestarted?.(result);
          },
          () => {
            this.failures += 1;
            this.scheduleRestart();
          },
        );
      },
      backoffDelay(this.failures, this.options.restarts),
    );
    this.restartTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.starting?.catch(() => undefined);
    const child = this.child;
    this.child = undefined;
    await stopChild(child, 3000);
  }
}
