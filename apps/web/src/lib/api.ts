import type { z } from 'zod';
import i18n from '../i18n/i18n';
import { readSessionToken } from './session-cookie';

/** API base of the contract: `/api` on the same origin unless the build says otherwise. */
export const API_BASE = (import.meta.env.VITE_API_BASE as string | undefined) ?? '/api';

export type FieldValue = string | number | boolean | Blob | null | undefined;
export type Fields = Record<string, FieldValue>;

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

export interface ApiOptions<S extends z.ZodType | undefined> {
  /** Validates the whole body; the result is typed from it. */
  schema?: S;
  /** Adds the `token` field from the session cookie (default true) unless the fields carry one. */
  withToken?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (the room join names its prepared media connection, ADR 016). */
  headers?: Record<string, string>;
}

function toBody(fields: Fields): URLSearchParams | FormData {
  const hasFile = Object.values(fields).some((value) => value instanceof Blob);
  const body = hasFile ? new FormData() : new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) (body as FormData).append(key, value);
    else body.append(key, String(value));
  }
  return body;
}

/**
 * POSTs form data to `/api/{name}` the way the contract says: the session token travels as the form
 * field `token`, the answer is `{status, message, data}`, and an error status throws an ApiError that
 * carries the server's message.
 */
export async function apiPost<S extends z.ZodType | undefined = undefined>(
  name: string,
  fields: Fields = {},
  options: ApiOptions<S> = {},
): Promise<S extends z.ZodType ? z.output<S> : ApiBody<unknown>> {
  const all: Fields = { ...fields };
  if (options.withToken !== false && all.token === undefined) all.token = readSessionToken();
  if (all.lng === undefined && i18n.resolvedLanguage) all.lng = i18n.resolvedLanguage;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${name}`, {
      method: 'POST',
      body: toBody(all),
      headers: { accept: 'application/json', ...options.headers },
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(i18n.t('common:errors.network'), 0);
  }

  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // The connection broke while the answer was read (the tab navigating away, a proxy cutting it): that
    // says nothing about the request, and must not read as the server's answer (a session check that
    // took it for a rejected token signed the visitor out).
    if (error instanceof TypeError) throw new ApiError(i18n.t('common:errors.network'), 0);
    throw new ApiError(i18n.t('common:errors.unexpected', { status: response.status }), response.status);
  }
  const envelope = body as Partial<ApiBody<unknown>> | null;
  if (!envelope || typeof envelope !== 'object' || (envelope.status !== 'success' && envelope.status !== 'error')) {
    throw new ApiError(i18n.t('common:errors.unexpected', { status: response.status }), response.status);
  }
  if (!response.ok || envelope.status === 'error') {
    const message = typeof envelope.message === 'string' && envelope.message ? envelope.message : '';
    throw new ApiError(message || i18n.t('common:errors.unexpected', { status: response.status }), response.status);
  }
  if (!options.schema) return envelope as never;
  const parsed = options.schema.safeParse(envelope);
  if (!parsed.success) {
    throw new ApiError(i18n.t('common:errors.unexpected', { status: response.status }), response.status);
  }
  return parsed.data as never;
}
