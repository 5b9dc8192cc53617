import type { z } from 'zod';

/** Who may call: anyone, anyone with the caller known when a valid token came, a signed-in user, an administrator. */
export type CallAuth = 'none' | 'optional' | 'user' | 'admin';

/**
 * One call of the API, `POST /api/{name}`: its file-style name (`login.php`), who may make it, the
 * fields it takes and the body it answers. The server validates both with these schemas; the web client
 * is handed the definition itself, posts to its name, types its input and parses the answer with it.
 */
export interface CallDefinition {
  name: string;
  auth: CallAuth;
  input: z.ZodType;
  output: z.ZodType;
}

/** A call whose answer has at least the fields of `Body` (for a helper that makes any of several calls). */
export type CallAnswering<Body> = CallDefinition & { output: z.ZodType<Body> };

/** The fields a call takes, as a client sends them (numbers may travel as text, files as bytes). */
export type InputOf<Call extends CallDefinition> = z.input<Call['input']>;
/** The fields a call takes, as the server's handler gets them once validated. */
export type FieldsOf<Call extends CallDefinition> = z.output<Call['input']>;
/** The body a call answers. */
export type OutputOf<Call extends CallDefinition> = z.output<Call['output']>;

type Area = Record<string, CallDefinition>;
/** The definitions of some areas, as one union. */
type DefinitionsOf<Areas extends Area[]> = { [Index in keyof Areas]: Areas[Index][keyof Areas[Index]] }[number];

/** The definitions of some areas keyed by their wire names. */
export type ByName<Areas extends Area[]> = {
  [Call in DefinitionsOf<Areas> as Call['name']]: Call;
};

/**
 * The definitions of one or more areas keyed by their wire names (areas may reuse an identifier, as
 * `adminCalls.getEvents` beside `meetingCalls.getEvents`); a wire name defined twice is refused.
 */
export function tableOf<Areas extends Area[]>(...areas: Areas): ByName<Areas> {
  const table: Record<string, CallDefinition> = {};
  for (const definition of areas.flatMap((area) => Object.values(area))) {
    if (table[definition.name]) throw new Error(`Two calls are named ${definition.name}`);
    table[definition.name] = definition;
  }
  return table as ByName<Areas>;
}
