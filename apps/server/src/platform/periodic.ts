/** A job started by `runPeriodically`. */
export interface PeriodicJob {
  /** Runs the job now unless a run is already going; resolves when that run is over. */
  runNow(): Promise<void>;
  /** No further runs; resolves once the run in progress (if any) has finished. */
  stop(): Promise<void>;
}

export interface PeriodicOptions {
  everyMs: number;
  /** A failed run is reported here; the next one still comes. */
  onError: (error: unknown) => void;
}

/**
 * Runs `run` every `everyMs` in this process. A run still going when the next is due is not started
 * twice (that turn is skipped), and `stop` waits for it, so a shutdown never closes the database
 * under a job.
 */
export function runPeriodically(run: () => Promise<unknown>, { everyMs, onError }: PeriodicOptions): PeriodicJob {
  let running: Promise<void> | undefined;
  let isStopped = false;
  const runNow = () => {
    if (isStopped) return Promise.resolve();
    running ??= run()
      .then(
        () => undefined,
        (error: unknown) => onError(error),
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void runNow(), everyMs);
  timer.unref();
  return {
    runNow,
    async stop() {
      isStopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
