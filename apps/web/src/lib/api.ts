import { requestBodyOf, type CallDefinition, type InputOf, type OutputOf } from '@meetcast/contracts';
import { readSessionToken } from './session-cookie';

/** API base of the contract: `/api` on the same origin unless the build says otherwise. */
export const API_BASE = (import.meta.env.VITE_API_BASE as string | undefined) ?? '/api';

export interface ApiBody<T> {
  status: 'success' | 'error';
  message: string;
  data?: T;
}

/** A failed call: the server's message (already translated by it) and the HTTP status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
  }

  /** 0 means the server was not reached at all. */
  get isNetworkError() {
    return this.httpStatus === 0;
  }
}

/**
 * What calls need from the translations, which sit above lib/ and hand it in at start (i18n.ts):
 * the reader's language, sent with every call, and the words for failures the server did not word.
 */
export interface ApiWording {
  language(): string | undefined;
  networkFailure(): string;
  unexpectedAnswer(httpStatus: number): string;
}

let wording: ApiWording | undefined;

export function setApiWording(next: ApiWording) {
  wording = next;
}

function wordingOrThrow(): ApiWording {
  // Every page loads the translations before its first call; a call without them is a wiring mistake.
  if (!wording) throw new Error('api: setApiWording() was not called');
  return wording;
}

const networkFailure = () => new ApiError(wordingOrThrow().networkFailure(), 0);
const unexpectedAnswer = (response: Response) =>
  new ApiError(wordingOrThrow().unexpectedAnswer(response.status), response.status);

export interface CallOptions {
  /** Adds the `token` field from the session cookie (default true) unless the input carries one. */
  withToken?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (the room join names its prepared media connection, ADR 016). */
  headers?: Record<string, string>;
}

/** A call's input as the browser holds it: files are Blobs where the server receives bytes. */
export type CallFieldsOf<Input> = {
  [Key in keyof Input]: Input[Key] extends Uint8Array | undefined ? Blob | Exclude<Input[Key], Uint8Array> : Input[Key];
};
/** The input of a call (`roomCalls.getRoom`) as a page passes it to `api.call`. */
export type WebCallInput<Call extends CallDefinition> = CallFieldsOf<InputOf<Call>>;

/** POSTs the input to `/api/{name}` with the session token (as the field `token`) and the language. */
async function send(name: string, input: object, options: CallOptions): Promise<Response> {
  const fields: Record<string, unknown> = { ...input };
  if (options.withToken !== false && fields.token === undefined) fields.token = readSessionToken();
  const language = wordingOrThrow().language();
  if (fields.lng === undefined && language) fields.lng = language;
  const { body, headers } = requestBodyOf(fields);
  try {
    return await fetch(`${API_BASE}/${name}`, {
      method: 'POST',
      body,
      headers: { accept: 'application/json', ...headers, ...options.headers },
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw networkFailure();
  }
}

/** The answer's `{status, message, data}`; an error status throws an ApiError with the server's message. */
async function readEnvelope(response: Response): Promise<Partial<ApiBody<unknown>>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // The connection broke while the answer was read (the tab navigating away, a proxy cutting it): that
    // says nothing about the request, and must not read as the server's answer (a session check that
    // took it for a rejected token signed the visitor out).
    if (error instanceof TypeError) throw networkFailure();
    throw unexpectedAnswer(response);
  }
  const envelope = body as Partial<ApiBody<unknown>> | null;
  if (!envelope || typeof envelope !== 'object' || (envelope.status !== 'success' && envelope.status !== 'error')) {
    throw unexpectedAnswer(response);
  }
  if (!response.ok || envelope.status === 'error') {
    const message = typeof envelope.message === 'string' && envelope.message ? envelope.message : '';
    throw message ? new ApiError(message, response.status) : unexpectedAnswer(response);
  }
  return envelope;
}

/**
 * Makes one call the way the contract says, given its definition (`api.call(roomCalls.getRoom, …)`),
 * and parses the answer with the definition's output schema; an error status throws an ApiError that
 * carries the server's message. A page imports only the definitions it calls, so its chunk carries only
 * their schemas (the sign-in page's budget, ADR 027).
 */
async function call<Call extends CallDefinition>(
  definition: Call,
  input: WebCallInput<Call>,
  options: CallOptions = {},
): Promise<OutputOf<Call>> {
  const response = await send(definition.name, input, options);
  const envelope = await readEnvelope(response);
  const parsed = definition.output.safeParse(envelope);
  if (!parsed.success) {
    throw unexpectedAnswer(response);
  }
  return parsed.data as OutputOf<Call>;
}

/** Makes a call that answers a file: the file, and the name the server gives it. */
async function download<Call extends CallDefinition>(
  definition: Call,
  input: WebCallInput<Call>,
  options: CallOptions = {},
): Promise<{ file: Blob; filename: string | undefined }> {
  const response = await send(definition.name, input, options);
  if (!response.ok) await readEnvelope(response);
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return { file: await response.blob(), filename };
}

/** The API of the contract, typed by the definitions of its calls. */
export const api = { call, download };
