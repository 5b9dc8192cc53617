import type { z } from 'zod';
import { accountCalls } from './account-calls.js';
import { adminCalls } from './admin-calls.js';
import { fileCalls } from './file-calls.js';
import { meetingCalls } from './meeting-calls.js';
import { peopleCalls } from './people-calls.js';
import { roomCalls } from './room-calls.js';
import { streamingCalls } from './streaming-calls.js';

export type { CallAuth, CallDefinition, CallTable } from './call.js';
export { accountCalls, adminCalls, fileCalls, meetingCalls, peopleCalls, roomCalls, streamingCalls };

/**
 * Every call of the API by its file-style name (`login.php`): the one place that pairs a name with its
 * auth, input and output. The server registers its routes from it, the web client types `api.call` by
 * it, and the fuzz and authorization tests walk it.
 */
export const calls = {
  ...accountCalls,
  ...meetingCalls,
  ...roomCalls,
  ...peopleCalls,
  ...streamingCalls,
  ...adminCalls,
};

export type Calls = typeof calls;
export type CallName = keyof Calls;
/** The fields a call takes, as a client sends them (numbers may travel as text, files as bytes). */
export type CallInput<Name extends CallName> = z.input<Calls[Name]['input']>;
/** The fields a call takes, as the server's handler gets them once validated. */
export type CallFields<Name extends CallName> = z.output<Calls[Name]['input']>;
/** The body a call answers. */
export type CallOutput<Name extends CallName> = z.output<Calls[Name]['output']>;

export type FileCallName = keyof typeof fileCalls;
/** The fields a call that answers a file takes, as a client sends them. */
export type FileCallInput<Name extends FileCallName> = z.input<(typeof fileCalls)[Name]['input']>;
