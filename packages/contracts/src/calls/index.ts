/**
 * Every call of the API, one definition each (its wire name, auth, input and output), grouped by area
 * and named by an identifier: `roomCalls.getRoom` is `get-room.php`. A web page imports the areas it
 * calls and hands the definition to `api.call`, so the bundler keeps only the definitions (and schemas)
 * that page uses. The whole table keyed by wire name, for the server and the tests that walk it, is
 * `@meetcast/contracts/call-table`.
 */
export type { ByName, CallAnswering, CallAuth, CallDefinition, FieldsOf, InputOf, OutputOf } from './call.js';
export { tableOf } from './call.js';
export * as accountCalls from './account-calls.js';
export * as adminCalls from './admin-calls.js';
export * as fileCalls from './file-calls.js';
export * as meetingCalls from './meeting-calls.js';
export * as peopleCalls from './people-calls.js';
export * as roomCalls from './room-calls.js';
export * as streamingCalls from './streaming-calls.js';
export { requestBodyOf } from './request-body.js';
