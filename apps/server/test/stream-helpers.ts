import type { StreamConnection } from '@meetcast/contracts';
import { eq, streamConnections } from '@meetcast/db';
import { followConsent } from '@meetcast/testkit/fake-oauth';
import type { ApiAnswer, SignedIn, TestServer } from './test-server.js';

/** What the connect flow needs of a server: its API (an in-process test server, or a server process). */
type Api = Pick<TestServer, 'post'>;

export type ConnectionAnswer = ApiAnswer<{ data: StreamConnection }>;

/** start-stream-connection.php, then the platform's consent page as a browser would use it. */
export async function startAndConsent(
  server: Api,
  who: Pick<SignedIn, 'token'>,
  platform: 'youtube' | 'twitch',
  decision: 'allow' | 'deny' = 'allow',
): Promise<URL> {
  const start = await server.post<{ url: string }>('start-stream-connection.php', { token: who.token, platform });
  if (start.httpStatus !== 200 || !start.body.data) throw new Error(`start failed: ${start.body.message}`);
  return followConsent(start.body.data.url, decision);
}

/** What /connect-stream posts back: the redirect's code (or error) and state. */
export function finishFields(who: Pick<SignedIn, 'token'>, platform: 'youtube' | 'twitch', redirect: URL) {
  const query = redirect.searchParams;
  return {
    token: who.token,
    platform,
    code: query.get('code') ?? undefined,
    state: query.get('state') ?? '',
    error: query.get('error') ?? undefined,
  };
}

/** The whole connect flow: start, consent, finish. */
export async function connectPlatform(
  server: Api,
  who: Pick<SignedIn, 'token'>,
  platform: 'youtube' | 'twitch',
  decision: 'allow' | 'deny' = 'allow',
): Promise<ConnectionAnswer> {
  const redirect = await startAndConsent(server, who, platform, decision);
  return server.post('finish-stream-connection.php', finishFields(who, platform, redirect));
}

/** connectPlatform for a test that needs it to work. */
export async function connected(server: Api, who: Pick<SignedIn, 'token'>, platform: 'youtube' | 'twitch') {
  const answer = await connectPlatform(server, who, platform);
  if (answer.httpStatus !== 200 || !answer.body.data) throw new Error(`connect failed: ${answer.body.message}`);
  return answer.body.data.data;
}

export async function connectionRow(server: TestServer, id: number) {
  const [row] = await server.built.context.db.select().from(streamConnections).where(eq(streamConnections.id, id));
  if (!row) throw new Error(`no stream connection ${id}`);
  return row;
}
