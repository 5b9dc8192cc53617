import { buildApp } from './app.js';
import { loadConfig } from './env.js';

const config = loadConfig();
const { app } = await buildApp(config);

// A promise that failed with nobody waiting for it is a defect to fix, not a reason to drop every
// meeting, stream and managed child of this process: it is logged, and the process goes on.
process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection'));

/** A restart must not hang on a slow client or media server: whatever is still open then is cut. */
const SHUTDOWN_DEADLINE_MS = 5000;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.warn('shutdown deadline reached; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await app.listen({ port: config.port, host: config.host });
