import type { ChildProcess } from 'node:child_process';
import { stopChild } from '../../platform/managed-child.js';
import type { ProcessLedger } from './child-processes.js';
import { keepTail } from './ffmpeg-progress.js';
import type { MediaFanOut } from './media-fan-out.js';
import { backoffDelay, type BackoffSchedule } from '../../platform/backoff.js';

/** An ffmpeg that exited while the broadcast runs is started again after this. */
/** A reader that exits is started again after the same short wait each time. */
const RESTART: BackoffSchedule = { firstMs: 1000, maxMs: 1000, factor: 1 };

export interface EncodeReaderOptions {
  /** What the log calls this reader. */
  name: string;
  /** ffmpeg's whole command line for its `run`th start (0, 1, …): each run may write somewhere new. */
  args: (run: number) => string[];
  /**
   * A reader whose stdin holds more than `maxBytes` is behind the encode: `drop` loses the chunk
   * (it never stalls the encode, and it keeps its file), `restart` kills it so that it starts
   * again at a keyframe, live (a viewer is better served late by a second than by minutes).
   */
  backlog: { maxBytes: number; then: 'drop' | 'restart' };
  /** How long `stop()` lets ffmpeg finish writing once its stdin is closed. */
  stopTimeoutMs: number;
}

/** One ffmpeg reading the composer's encode from the fan-out, brought back if it exits while the broadcast runs. */
export class EncodeReader {
  private child: ChildProcess | undefined;
  private unsubscribe: (() => void) | undefined;
  private restart: NodeJS.Timeout | undefined;
  private isStopped = false;
  private runCount = 0;
  private tail: () => string = () => '';

  constructor(
    private readonly ledger: ProcessLedger,
    private readonly source: MediaFanOut,
    private readonly options: EncodeReaderOptions,
    private readonly log: (message: string) => void,
  ) {}

  /** How many times ffmpeg was started. */
  get runs() {
    return this.runCount;
  }

  /** The last lines ffmpeg wrote to stderr. */
  lastError() {
    return this.tail();
  }

  start() {
    if (this.isStopped) return;
    const child = this.ledger.spawn('ffmpeg', this.options.args(this.runCount), { stdio: ['pipe', 'ignore', 'pipe'] });
    this.runCount += 1;
    this.child = child;
    child.stdin?.on('error', () => undefined);
    const tail = keepTail(child.stderr);
    this.tail = tail;
    const unsubscribe = this.source.add((chunk) => this.write(child, chunk));
    this.unsubscribe = unsubscribe;
    child.once('exit', (code, signal) => {
      unsubscribe();
      if (this.isStopped || this.child !== child) return;
      this.child = undefined;
      this.log(`${this.options.name} exited (${code ?? signal}): ${tail()}; starting it again`);
      this.restart = setTimeout(() => this.start(), backoffDelay(1, RESTART));
      this.restart.unref();
    });
  }

  private write(child: ChildProcess, chunk: Buffer) {
    const stdin = child.stdin;
    if (!stdin?.writable) return;
    if (stdin.writableLength <= this.options.backlog.maxBytes) stdin.write(chunk);
    else if (this.options.backlog.then === 'restart') child.kill('SIGKILL');
  }

  /** Closes ffmpeg's input and waits for it to finish writing (killed after `stopTimeoutMs`). */
  async stop() {
    this.isStopped = true;
    clearTimeout(this.restart);
    this.unsubscribe?.();
    const child = this.child;
    this.child = undefined;
    child?.stdin?.end();
    await stopChild(child, this.options.stopTimeoutMs, null);
  }
}
