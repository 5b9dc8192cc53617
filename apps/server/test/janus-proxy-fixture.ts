import { eq, meetings } from '@meetcast/db';
import { afterAll, beforeAll } from 'vitest';
import { JanusClient } from '../src/media/janus-client.js';
import { insertMeeting, RoomClient, type JoinAnswer } from './room-helpers.js';
import { startTestServer, type SignedIn, type TestServer } from './test-server.js';

/**
 * The /janus proxy's test files: one server (embedded database, managed Janus) with a signed-up
 * host, started before the file's tests and closed after them, and what those tests ask of it.
 */
export function useProxyServer() {
  let server: TestServer | undefined;
  let host: SignedIn | undefined;
  beforeAll(async () => {
    server = await startTestServer('pglite');
    host = await server.signUp({ username: 'Proxy Host' });
  });
  afterAll(() => server?.close());

  const proxy = {
    get server() {
      return server!;
    },
    get host() {
      return host!;
    },
    /** The media connection of an admitted grant. */
    wsUrl: (grant: string) => `${proxy.server.baseUrl.replace('http', 'ws')}/janus?grant=${encodeURIComponent(grant)}`,
    join: (fields: Record<string, string | number | undefined>, headers?: Record<string, string>) =>
      proxy.server.post<JoinAnswer>('join-room.php', fields, headers),
    /** A meeting whose host is in the room (so its Janus room is placed), and the host's room connection. */
    hostedMeeting: async () => {
      const meeting = await insertMeeting(proxy.server, { hostId: proxy.host.user.id });
      const hostGrant = (await proxy.join({ meetId: meeting.slug, token: proxy.host.token })).body.data!.grant;
      const hostClient = new RoomClient(proxy.server.baseUrl, hostGrant);
      await hostClient.next('room.state');
      return { meeting, hostGrant, hostClient };
    },
    /** The feeds Janus has in a meeting's room. */
    roomFeeds: (meetingId: number) => roomFeeds(proxy.server, meetingId),
  };
  return proxy;
}

/** The feeds a test server's managed Janus has in a meeting's room, asked with the API secret as the server asks. */
export async function roomFeeds(server: TestServer, meetingId: number) {
  const [placed] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meetingId));
  const managed = server.built.context.media.managed!;
  const admin = new JanusClient(managed.url!, { apiSecret: managed.apiSecret });
  await admin.connect();
  try {
    return await admin.listParticipants(placed!.janusRoomId!);
  } finally {
    admin.close();
  }
}
