import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../i18n/i18n', () => ({ default: { t: (key: string) => key, resolvedLanguage: 'en' } }));

const { ApiError, apiPost } = await import('./api');

/** An answer whose headers arrive and whose body then breaks off, as when the tab navigates away. */
function answerCutAfter(text: string) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.error(new TypeError('network error'));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
}

async function failureOf(answer: Response) {
  vi.stubGlobal('fetch', () => Promise.resolve(answer));
  return apiPost('tokenverify.php', { token: 'abc' }, { withToken: false }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('apiPost', () => {
  it('reports an answer cut off while it was read as a network error, not as the server’s answer', async () => {
    const error = await failureOf(answerCutAfter('{"status":"succ'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as InstanceType<typeof ApiError>).isNetworkError).toBe(true);
  });

  it('keeps the status of a complete answer that is not the contract’s JSON', async () => {
    const error = await failureOf(new Response('<html>', { status: 502 }));
    expect((error as InstanceType<typeof ApiError>).httpStatus).toBe(502);
  });

  it('keeps the server’s message and status for an error answer', async () => {
    const error = await failureOf(
      Response.json({ status: 'error', message: 'Your session has expired.', data: null }, { status: 401 }),
    );
    expect(error).toMatchObject({ httpStatus: 401, message: 'Your session has expired.' });
  });
});
