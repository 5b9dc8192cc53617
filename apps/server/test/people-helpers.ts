import type { ApiAnswer, Fields, TestServer } from './test-server.js';

/** A multipart form post with one file part, the way a browser uploads. */
export async function postFile<T = unknown>(
  server: TestServer,
  name: string,
  fields: Fields,
  file: { field?: string; filename: string; type: string; bytes: Uint8Array | string },
): Promise<ApiAnswer<T>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, String(value));
  const bytes = typeof file.bytes === 'string' ? new TextEncoder().encode(file.bytes) : file.bytes;
  form.append(file.field ?? 'file', new Blob([bytes], { type: file.type }), file.filename);
  const response = await fetch(`${server.baseUrl}/api/${name}`, { method: 'POST', body: form });
  return { httpStatus: response.status, body: (await response.json()) as ApiAnswer<T>['body'] };
}
