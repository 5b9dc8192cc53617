import type { z } from 'zod';

/**
 * The server's side of the Janus wire format: the message schemas themselves are shared with the
 * web (`@meetcast/contracts`, janus.ts); what only the server does with them is here.
 */

/** A Janus message read from its text against `schema`, or undefined (not JSON, or not that message). */
export function readJanus<T extends z.ZodType>(text: string, schema: T): z.infer<T> | undefined {
  const json = readJson(text);
  if (json === undefined) return undefined;
  const parsed = schema.safeParse(json.value);
  return parsed.success ? parsed.data : undefined;
}

/** The JSON a text holds, boxed (`null` is JSON too), or undefined when it is none. */
export function readJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** A request as it goes up to Janus: with the API secret, when the instance has one. */
export function withApiSecret<T extends object>(message: T, apiSecret: string | undefined): T {
  return apiSecret ? { ...message, apisecret: apiSecret } : message;
}
