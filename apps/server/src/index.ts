/**
 * The server's public entry (`@meetcast/server`), for programs that run the real server in their
 * own process (the end-to-end suite, the benches): it is built as `main.ts` builds it, and their data
 * is prepared the way the server's own features prepare it. Loading it loads the whole server: a helper
 * that needs a process helper imports `@meetcast/server/tooling`, a bench that measures one part of the
 * composer alone `@meetcast/server/composer-parts`.
 */
export { createAccount } from './accounts/account-service.js';
export { buildApp, type BuiltApp } from './app.js';
export { loadConfig } from './env.js';
export { JanusClient } from './media/janus-client.js';
export { hashPassword } from './platform/hashing.js';
export { secretsBoxFor } from './platform/secrets-box.js';
