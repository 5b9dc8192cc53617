const isStructured = (value: unknown) => typeof value === 'object' && value !== null && !(value instanceof Blob);

/**
 * The request body the contract accepts for a call's fields: a form (multipart when a file is among
 * them), or JSON when a field holds a list or an object (`destinations`, `links`): the server takes
 * those as they are instead of as JSON text inside a form field (ADR 027). Empty fields are left out.
 */
export function requestBodyOf(fields: Record<string, unknown>): { body: string | URLSearchParams | FormData; headers: Record<string, string> } {
  const present = Object.entries(fields).filter(([, value]) => value !== undefined && value !== null);
  const hasFile = present.some(([, value]) => value instanceof Blob);
  if (!hasFile && present.some(([, value]) => isStructured(value))) {
    return { body: JSON.stringify(Object.fromEntries(present)), headers: { 'content-type': 'application/json' } };
  }
  const body = hasFile ? new FormData() : new URLSearchParams();
  for (const [key, value] of present) {
    if (value instanceof Blob) (body as FormData).append(key, value);
    else body.append(key, isStructured(value) ? JSON.stringify(value) : String(value as string | number | boolean));
  }
  return { body, headers: {} };
}
