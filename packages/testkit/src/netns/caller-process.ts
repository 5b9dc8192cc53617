import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CallerOptions, CallerReport } from './light-caller.js';

const SCRIPT = fileURLToPath(new URL('./light-caller.ts', import.meta.url));

/** A light caller (light-caller.ts) running as a process, in a network namespace or on this machine. */
export class CallerProcess {
  readonly reports: CallerReport[] = [];
  private readonly child: ChildProcess;
  private errors = '';

  constructor(options: CallerOptions, namespace?: string) {
    const node = [process.execPath, '--import', 'tsx', SCRIPT, JSON.stringify(options)];
    const [command, ...args] = namespace ? ['ip', 'netns', 'exec', namespace, ...node] : node;
    this.child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let pending = '';
    this.child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.reports.push(JSON.parse(line) as CallerReport);
    });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.errors += chunk.toString()));
  }

  get latest(): CallerReport | undefined {
    return this.reports.findLast((report) => report.event === 'stats');
  }

  /** Waits for a report that satisfies `ok`; fails with what the caller said when it does not come. */
  async until(ok: (report: CallerReport) => boolean, timeoutMs: number, what: string): Promise<CallerReport> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.reports.find(ok);
      if (found) return found;
      const failed = this.reports.find((report) => report.event === 'error');
      if (failed || this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(
          `${what}: ${failed?.message ?? 'not seen'}; last report ${JSON.stringify(this.latest)}; ${this.errors.slice(-500)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits until the count of video packets received grows by `packets` after now. */
  async receivesMore(packets: number, timeoutMs: number, what: string) {
    const from = this.latest?.received ?? 0;
    const seenBefore = this.reports.length;
    return this.until(
      (report) => this.reports.indexOf(report) >= seenBefore && (report.received ?? 0) >= from + packets,
      timeoutMs,
      what,
    );
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.child.kill('SIGTERM');
    });
  }
}
