import { accountCalls, peopleCalls, streamingCalls } from '@meetcast/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError, api, setApiWording } from './api';

setApiWording({
  language: () => 'en',
  networkFailure: () => 'common:errors.network',
  unexpectedAnswer: (httpStatus) => `common:errors.unexpected ${httpStatus}`,
});

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
  return api.call(accountCalls.tokenverify, { token: 'abc' }, { withToken: false }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('api.call', () => {
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

describe('api.call bodies', () => {
  /** The request the client made, and an answer in the shape of the call's output. */
  function capture(answer: unknown) {
    const requests: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return Promise.resolve(Response.json(answer));
    });
    return requests;
  }

  it('sends flat fields as a form with the session token and the language', async () => {
    const requests = capture({ status: 'success', message: 'Deleted.' });
    await api.call(peopleCalls.deleteContact, { id: 7 }, { withToken: false });
    const body = requests[0]!.init.body as URLSearchParams;
    expect(requests[0]!.url).toBe('/api/delete-contact.php');
    expect(body).toBeInstanceOf(URLSearchParams);
    expect(Object.fromEntries(body)).toEqual({ id: '7', lng: 'en' });
  });

  it('sends a list (the destinations of a broadcast) as a JSON body, not as JSON text in a form field', async () => {
    const requests = capture({ status: 'error', message: 'No.' });
    const destinations = [{ connection_id: 3, title: 'Launch' }];
    await api
      .call(streamingCalls.startBroadcast, { meetId: 'abc-def', destinations, record: 1 }, { withToken: false })
      .catch(() => undefined);
    const { body, headers } = requests[0]!.init;
    expect((headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(JSON.parse(body as string)).toMatchObject({ meetId: 'abc-def', destinations, record: 1, lng: 'en' });
  });

  it('sends a file as multipart form data', async () => {
    const requests = capture({ status: 'error', message: 'No.' });
    await api
      .call(peopleCalls.importContacts, { file: new Blob(['a,b']) }, { withToken: false })
      .catch(() => undefined);
    expect(requests[0]!.init.body).toBeInstanceOf(FormData);
  });

  it("refuses an answer that does not match the call's output schema", async () => {
    capture({ status: 'success', message: 'Here.', data: { data: 'not a list' } });
    const error = await api.call(accountCalls.getUserNotification, {}, { withToken: false }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ApiError);
  });
});
