import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stopChild, waitFor, type ProcessLedger } from './child-processes.js';
import type { ChildProcess } from 'node:child_process';

export interface ScreenSize {
  width: number;
  height: number;
}

/**
 * A screen nobody sees (Xvfb) and a sound card nobody hears (a PulseAudio null sink) for one
 * composer: Chromium draws and plays the meeting into them, ffmpeg records them.
 */
export class VirtualScreen {
  private xvfb: ChildProcess | undefined;
  private pulse: ChildProcess | undefined;
  readonly display: string;
  readonly pulseServer: string;
  readonly audioSource = 'composer.monitor';

  constructor(
    private readonly ledger: ProcessLedger,
    private readonly folder: string,
    displayNumber: number,
    readonly size: ScreenSize,
  ) {
    this.display = `:${displayNumber}`;
    this.pulseServer = `unix:${join(folder, 'pulse', 'native')}`;
  }

  async start() {
    const displayNumber = this.display.slice(1);
    this.xvfb = this.ledger.spawn('Xvfb', [
      this.display,
      '-screen',
      '0',
      `${this.size.width}x${this.size.height}x24`,
      '-nolisten',
      'tcp',
      '-noreset',
    ]);
    const pulseFolder = join(this.folder, 'pulse');
    mkdirSync(pulseFolder, { recursive: true });
    const socket = join(pulseFolder, 'native');
    rmSync(socket, { force: true });
    this.pulse = this.ledger.spawn(
      'pulseaudio',
      [
        '-n',
        '--daemonize=no',
        '--exit-idle-time=-1',
        '--disallow-exit',
        '--use-pid-file=no',
        '-L',
        `module-native-protocol-unix socket=${socket} auth-anonymous=1`,
        '-L',
        'module-null-sink sink_name=composer rate=48000',
      ],
      // PulseAudio keeps state in HOME and XDG_RUNTIME_DIR: give each composer its own.
      { env: { ...process.env, HOME: pulseFolder, XDG_RUNTIME_DIR: pulseFolder, DISPLAY: '' } },
    );
    await waitFor(
      () => existsSync(`/tmp/.X11-unix/X${displayNumber}`) && existsSync(socket),
      10_000,
      'Xvfb and PulseAudio',
    );
    for (const child of [this.xvfb, this.pulse]) {
      if (child.exitCode !== null) throw new Error(`${child.spawnfile} exited at start`);
    }
  }

  async stop() {
    await Promise.all([stopChild(this.pulse, 2000), stopChild(this.xvfb, 2000)]);
  }
}

/** A display number no live X server holds; a lock left by a killed one is cleared. */
export function freeDisplayNumber(taken: Set<number>, from = 90): number {
  for (let number = from; number < from + 200; number += 1) {
    if (taken.has(number)) continue;
    const lock = `/tmp/.X${number}-lock`;
    if (!existsSync(lock)) return number;
    const pid = Number(readFileSync(lock, 'utf8').trim());
    if (pid > 0 && existsSync(`/proc/${pid}`)) continue;
    rmSync(lock, { force: true });
    rmSync(`/tmp/.X11-unix/X${number}`, { force: true });
    return number;
  }
  throw new Error('no free X display');
}
