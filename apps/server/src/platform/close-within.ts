import type { FastifyBaseLogger } from 'fastify';

/** How long one step of a shutdown may take before the others go on without it. */
const CLOSE_STEP_MS = 5000;

/**
 * Runs one step of the server's shutdown, giving up on it (with a warning naming it) after 5 s: a
 * step that hangs (a lock, a connection never given back) must not hold every other one, nor a
 * test's teardown. The process's own 5-s deadline (main.ts) still ends a real shutdown.
 */
export async function closeWithin(log: FastifyBaseLogger, step: string, work: () => unknown): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), CLOSE_STEP_MS);
    timer.unref();
  });
  const done = Promise.resolve()
    .then(work)
    .then(
      () => 'done' as const,
      (error: unknown) => {
        log.warn({ err: error, step }, 'close: a step failed; going on');
        return 'done' as const;
      },
    );
  if ((await Promise.race([done, gaveUp])) === 'late') {
    log.warn({ step, ms: CLOSE_STEP_MS }, 'close: a step is still running; going on without it');
  }
  clearTimeout(timer);
}
