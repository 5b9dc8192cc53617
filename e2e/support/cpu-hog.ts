import { spawn, type ChildProcess } from 'node:child_process';

type Hook = (run: () => void) => void;

/**
 * Issue 16: a call must also work on a busy machine. With E2E_CPU_HOG=1 (CI sets it) the tests of the
 * file that calls this run with a process busy-looping beside them, from its first test to its last
 * in each worker: the room specs run once, under load, instead of a second time.
 */
export function besideCpuHogWhenAsked(test: { beforeAll: Hook; afterAll: Hook }) {
  if (process.env.E2E_CPU_HOG !== '1') return;
  let hog: ChildProcess | undefined;
  test.beforeAll(() => {
    hog = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
  });
  test.afterAll(() => {
    hog?.kill('SIGKILL');
  });
}
