import type { z } from 'zod';

/** Who may call: anyone, anyone with the caller known when a valid token came, a signed-in user, an administrator. */
export type CallAuth = 'none' | 'optional' | 'user' | 'admin';

/**
 * One call of the API, `POST /api/{name}`: who may make it, the fields it takes and the body it answers.
 * The server validates both with these schemas; the web client types its inputs and parses the answers
 * with them.
 */
export interface CallDefinition {
  auth: CallAuth;
  input: z.ZodType;
  output: z.ZodType;
}

export type CallTable = Record<string, CallDefinition>;
