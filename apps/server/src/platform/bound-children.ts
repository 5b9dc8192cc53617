import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Managed children (Janus, Xvfb, PulseAudio, Chromium, ffmpeg) must never outlive the server process
 * that started them: a server killed outright (SIGKILL, the OOM killer) left its Janus holding rooms
 * and its composers filming for nobody. Each is started through `setpriv --pdeathsig KILL`, which
 * asks the kernel to kill it the moment its parent dies, however it dies. The kernel ties this to
 * the thread that spawned the child; Node spawns from its main thread, which lives as long as the
 * process. Start-up still kills what an earlier process left (for systems without setpriv).
 */
const SETPRIV = findExecutable('setpriv');

/** The command and arguments that start `command` bound to this process (unchanged where that cannot be done). */
export function boundCommand(command: string, args: readonly string[]): [string, string[]] {
  const program = findExecutable(command);
  // A program that cannot be found is spawned as asked, so that its absence is reported as before (ENOENT).
  if (!SETPRIV || !program) return [command, [...args]];
  return [SETPRIV, ['--pdeathsig', 'KILL', '--', program, ...args]];
}

/** `spawn`, with the child bound to this process: it dies when the server dies. */
export function spawnBound(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const [file, fullArgs] = boundCommand(command, args);
  return spawn(file, fullArgs, options);
}

/**
 * A shell script that starts `program` bound to the process that starts the script, for launchers
 * that take an executable path rather than a command (Playwright's Chromium).
 */
export function boundLauncherScript(program: string): string {
  const [file, args] = boundCommand(program, []);
  return `#!/bin/sh\nexec ${[file, ...args].map(shellQuote).join(' ')} "$@"\n`;
}

function shellQuote(word: string) {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function findExecutable(command: string): string | undefined {
  const candidates =
    isAbsolute(command) || command.includes('/')
      ? [resolve(command)]
      : (process.env.PATH ?? '').split(delimiter).map((folder) => join(folder, command));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
