import type { z } from 'zod';

/** How long one call to a platform may take; a composer waiting on it is waiting with viewers. */
const PLATFORM_TIMEOUT_MS = 10_000;

/** A platform answered with an error status. `reason` is the platform's own word for it. */
export class PlatformHttpError extends Error {
  constructor(
    readonly status: number,
    /** YouTube `error.errors[0].reason`, OAuth `error`, or Twitch `message`. */
    readonly reason: string | undefined,
  ) {
    super(`platform answered ${status}${reason ? ` (${reason})` : ''}`);
  }
}

/** The platform could not be reached, or did not answer in time. */
export class PlatformUnreachableError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`platform unreachable: ${new URL(url).origin}`, { cause });
  }
}

/** The platform answered 2xx with a body that is not what its documentation describes. */
export class PlatformShapeError extends Error {
  constructor(
    readonly url: string,
    readonly issues: string,
  ) {
    super(`unexpected answer from ${new URL(url).origin}${new URL(url).pathname}: ${issues}`);
  }
}

export interface PlatformRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded (the OAuth endpoints). */
  form?: Record<string, string>;
  /** Sent as application/json (the Data API and Helix). */
  json?: unknown;
}

function reasonOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { error, message, status } = body as { error?: unknown; message?: unknown; status?: unknown };
  // Twitch: `{error: "Bad Request", status: 400, message: "Invalid refresh token"}`, the message says what.
  if (typeof status === 'number' && typeof message === 'string') return message;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const first = (error as { errors?: { reason?: unknown }[] }).errors?.[0]?.reason;
    if (typeof first === 'string') return first;
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'string') return status;
  }
  return typeof message === 'string' ? message : undefined;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** One call to a platform; an error status throws PlatformHttpError, a network failure PlatformUnreachableError. */
export async function platformCall(url: string, request: PlatformRequest = {}): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  } else if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(PLATFORM_TIMEOUT_MS),
    });
  } catch (error) {
    throw new PlatformUnreachableError(url, error);
  }
  let answer: unknown;
  try {
    answer = await readBody(response);
  } catch (error) {
    throw new PlatformUnreachableError(url, error);
  }
  if (!response.ok) throw new PlatformHttpError(response.status, reasonOf(answer));
  return answer;
}

/** A call whose answer is read through `schema`: the platforms' answers are checked like any input. */
export async function platformJson<Schema extends z.ZodType>(
  schema: Schema,
  url: string,
  request: PlatformRequest = {},
): Promise<z.infer<Schema>> {
  const answer = await platformCall(url, request);
  const parsed = schema.safeParse(answer);
  if (!parsed.success) {
    throw new PlatformShapeError(url, parsed.error.issues.map((issue) => issue.path.join('.')).join(', '));
  }
  return parsed.data;
}

/** `base` + `path` + query, with every query value encoded. */
export function platformUrl(base: string, path: string, query: Record<string, string | undefined> = {}): string {
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** Server errors, throttling and silence: worth trying again later. */
export function isTransient(error: unknown): boolean {
  if (error instanceof PlatformUnreachableError) return true;
  return error instanceof PlatformHttpError && (error.status >= 500 || error.status === 429);
}
