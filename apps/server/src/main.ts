import { buildApp } from './app.js';
import { loadConfig } from './env.js';
import { makeDataDirPrivate } from './platform/private-data-dir.js';

const config = loadConfig();
// Before anything is written: the database, the composers and Janus create their files from here on.
const dataDirPrivacy = makeDataDirPrivate(config.dataDir);
const { app } = await buildApp(config);
if (dataDirPrivacy.state === 'closed') {
  app.log.warn({ dataDir: config.dataDir }, 'DATA_DIR was open to other users; it is now 0700');
} else if (dataDirPrivacy.state === 'open') {
  app.log.warn(
    { dataDir: config.dataDir, err: dataDirPrivacy.reason },
    "DATA_DIR is open to other users and not the server's to close: make it 0700",
  );
}

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
