import { tableOf, type FieldsOf, type InputOf, type OutputOf } from './call.js';
import { accountCalls, adminCalls, fileCalls, meetingCalls, peopleCalls, roomCalls, streamingCalls } from './index.js';

/**
 * Every call of the API by its file-style name (`login.php`): the one place that pairs a name with its
 * auth, input and output. The server registers its routes from it, and the fuzz and authorization tests
 * walk it. (The web never loads it whole: its pages import the definitions they call, see `./index.ts`.)
 */
export const calls = tableOf(accountCalls, meetingCalls, roomCalls, peopleCalls, streamingCalls, adminCalls);

/** The calls that answer a file instead of the JSON body, by name. */
export const fileCallTable = tableOf(fileCalls);

export type Calls = typeof calls;
export type CallName = keyof Calls;
/** The fields a call takes, as a client sends them (numbers may travel as text, files as bytes). */
export type CallInput<Name extends CallName> = InputOf<Calls[Name]>;
/** The fields a call takes, as the server's handler gets them once validated. */
export type CallFields<Name extends CallName> = FieldsOf<Calls[Name]>;
/** The body a call answers. */
export type CallOutput<Name extends CallName> = OutputOf<Calls[Name]>;
