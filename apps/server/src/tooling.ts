/**
 * The server's light public entry (`@meetcast/server/tooling`): the process helpers the end-to-end
 * suite and the benches share with the server. It loads none of the app (the whole entry,
 * `@meetcast/server`, costs seconds to load, ADR 029).
 */
export { freePort } from './media/managed-janus.js';
export { killWorkerLeftovers, ProcessLedger } from './streaming/composer/child-processes.js';
export { stopChild } from './platform/managed-child.js';
