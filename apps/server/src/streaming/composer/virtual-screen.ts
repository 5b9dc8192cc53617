import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopChild } from '../../platform/managed-child.js';
import { waitFor, type ProcessLedger } from './child-processes.js';
import type { ChildProcess } from 'node:child_process';

/**
 * How much sound the stage's players keep queued in its sound card: the layout's Chromium
 * (PULSE_LATENCY_MSEC) and the silence that keeps the card awake. With Chromium's own ~10 ms it
 * missed the card's turns on busy cores and the meeting's sound drifted behind (ADR 014).
 */
export const SOUND_BUFFER_MS = 100;

export interface ScreenSize {
  width: number;
  height: number;
  /** Device pixels per CSS pixel of the Chromium drawing on it (1.5 on a 1080p stage). */
  scale?: number;
}

/**
 * A screen nobody sees (Xvfb) and a sound card nobody hears (a PulseAudio null sink) for one
 * composer: Chromium draws and plays the meeting into them, ffmpeg records them. Nobody else on
 * the machine may look or listen: the X server's sockets are open to every local user, so it asks
 * for a cookie that only the composer's folder holds (`xauthority`, handed to its clients as
 * XAUTHORITY); the sound server's socket sits in a folder only the server's user may enter, and it
 * takes no client but those of its own user (the socket's peer credentials), neither anonymous ones
 * nor a cookie that could be copied.
 */
export class VirtualScreen {
  private xvfb: ChildProcess | undefined;
  private pulse: ChildProcess | undefined;
  private silence: ChildProcess | undefined;
  private isStopped = false;
  readonly display: string;
  readonly pulseServer: string;
  /** The X server's cookie: its clients (Chromium, ffmpeg) must have XAUTHORITY set to this file. */
  readonly xauthority: string;
  readonly audioSource = 'composer.monitor';

  constructor(
    private readonly ledger: ProcessLedger,
    private readonly folder: string,
    displayNumber: number,
    readonly size: ScreenSize,
  ) {
    this.display = `:${displayNumber}`;
    this.pulseServer = `unix:${join(folder, 'pulse', 'native')}`;
    this.xauthority = join(folder, 'xauthority');
  }

  async start() {
    const displayNumber = this.display.slice(1);
    writeFileSync(this.xauthority, xauthorityEntry(displayNumber, randomBytes(16)), { mode: 0o600 });
    this.xvfb = this.ledger.spawn('Xvfb', [
      this.display,
      '-screen',
      '0',
      `${this.size.width}x${this.size.height}x24`,
      '-nolisten',
      'tcp',
      '-auth',
      this.xauthority,
      '-noreset',
    ]);
    const pulseFolder = join(this.folder, 'pulse');
    mkdirSync(pulseFolder, { recursive: true, mode: 0o700 });
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
        `module-native-protocol-unix socket=${socket} auth-anonymous=0 auth-cookie-enabled=0`,
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
    this.keepSoundCardRunning();
  }

  /**
   * Plays silence into the null sink for as long as the screen lives. A null sink that nothing plays
   * into sleeps; the first block it renders after waking is 2 s long, so an encoder starting then got
   * its first sound 1-2 s late and held every video frame until it came (measured: first bytes 2.3 s
   * against 0.26 s for video alone). A stream with the stage's sound buffer keeps it awake (0.016
   * core on an idle stage; a 20-ms buffer took 0.05-0.09).
   */
  private keepSoundCardRunning() {
    this.silence = this.ledger.spawn('pacat', [
      `--server=${this.pulseServer}`,
      '--playback',
      '--device=composer',
      `--latency-msec=${SOUND_BUFFER_MS}`,
      '--rate=48000',
      '--channels=2',
      '--format=s16le',
      '/dev/zero',
    ]);
  }

  async stop() {
    await stopChild(this.silence, 2000);
    await Promise.all([stopChild(this.pulse, 2000), stopChild(this.xvfb, 2000)]);
    // Once only: a second stop must not free the number another stage has claimed since.
    if (this.isStopped) return;
    this.isStopped = true;
    releaseDisplayNumber(Number(this.display.slice(1)));
  }
}

/**
 * One entry of an X authority file (the format of libXau, which `xauth` writes): the cookie for this
 * display number on any address (family "wild"), so that no `xauth` binary is needed.
 */
function xauthorityEntry(displayNumber: string, cookie: Buffer): Buffer {
  const counted = (bytes: Buffer) => {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const familyWild = Buffer.from([0xff, 0xff]);
  return Buffer.concat([
    familyWild,
    counted(Buffer.alloc(0)),
    counted(Buffer.from(displayNumber)),
    counted(Buffer.from('MIT-MAGIC-COOKIE-1')),
    counted(cookie),
  ]);
}

/**
 * Claims a display number that no live X server and no other composer on this machine holds. The
 * claim is a file created exclusively, so two server processes starting composers at the same moment
 * cannot both pick the number whose X server has not written its lock yet; claims and locks left by
 * dead processes are cleared.
 */
export function claimDisplayNumber(from = 90): number {
  for (let number = from; number < from + 200; number += 1) {
    if (isHeldByLiveProcess(`/tmp/.X${number}-lock`)) continue;
    rmSync(`/tmp/.X${number}-lock`, { force: true });
    rmSync(`/tmp/.X11-unix/X${number}`, { force: true });
    const claim = claimFile(number);
    if (isHeldByLiveProcess(claim)) continue;
    rmSync(claim, { force: true });
    try {
      writeFileSync(claim, String(process.pid), { flag: 'wx' });
      return number;
    } catch {
      // Claimed by another process meanwhile.
    }
  }
  throw new Error('no free X display');
}

export function releaseDisplayNumber(number: number) {
  rmSync(claimFile(number), { force: true });
}

const claimFile = (number: number) => `/tmp/.meetcast-display-${number}.claim`;

function isHeldByLiveProcess(file: string): boolean {
  if (!existsSync(file)) return false;
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return pid > 0 && existsSync(`/proc/${pid}`);
  } catch {
    return true;
  }
}
