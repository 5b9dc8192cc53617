import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMeeting, RoomClient, type JoinAnswer } from './room-helpers.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';
import { guestIdentity, liveBroadcast, type PostAnswer } from './viewer-chat-helpers.js';

/** Right-to-left override, embedding, isolate and pop characters: each re-orders the text after it. */
const RLO = '\u202E';
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

/**
 * Chat lines and the names shown beside them reach every reader as typed: bidi embeddings,
 * overrides and isolates are taken out when they are stored, right-to-left letters stay.
 */
describe('bidi controls in chat text and names', () => {
  let server: TestServer;
  let host: SignedIn;
  const clients: RoomClient[] = [];

  beforeAll(async () => {
    [server, host] = await startWithPeople('pglite', 'Bidi Host');
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await server.close();
  });

  const roomClient = (grant: string) => {
    const client = new RoomClient(server.baseUrl, grant);
    clients.push(client);
    return client;
  };

  it('takes them out of room chat lines and guest names, keeps Hebrew and Arabic as they are', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const hostGrant = (await server.post<JoinAnswer>('join-room.php', { meetId: meeting.slug, token: host.token })).body
      .data!.grant;
    const hostClient = roomClient(hostGrant);
    await hostClient.next('room.state');

    const guest = await server.post<JoinAnswer>('join-room.php', {
      meetId: meeting.slug,
      display_name: `Eve${RLO}gpj.exe`,
    });
    expect(guest.httpStatus).toBe(200);
    const guestClient = roomClient(guest.body.data!.grant);
    await guestClient.next('room.state');

    const typed = `${RLO}hello \u2067שלום\u2069 مرحبا\u202C`;
    expect(await guestClient.send({ type: 'chat.send', text: typed })).toEqual({ ok: true });
    const received = await hostClient.next('chat.message');
    expect(received.message.text).toBe('hello שלום مرحبا');
    expect(received.message.display_name).toBe('Evegpj.exe');
    // Nothing left once they are out: refused like an empty line.
    expect(await guestClient.send({ type: 'chat.send', text: `${RLO}\u2066 ` })).toEqual({
      ok: false,
      reason: 'invalid_message',
    });
  });

  it('takes them out of viewer chat lines, guest names and usernames', async () => {
    const meeting = await liveBroadcast(server, host);
    const guest = await guestIdentity(server);
    const posted = await server.post<PostAnswer>('post-viewer-chat.php', {
      meetId: meeting.slug,
      viewer_token: guest,
      display_name: `Mal${RLO}lory`,
      text: `see ${RLO}fdp.exe`,
    });
    expect(posted.httpStatus).toBe(200);
    expect(posted.body.data!.data.text).toBe('see fdp.exe');
    expect(posted.body.data!.data.author.display_name).toBe('Mallory');

    const named = await server.signUp({ username: `Ann${RLO}ette` });
    expect(named.user.username).toBe('Annette');
    const fromAccount = await server.post<PostAnswer>('post-viewer-chat.php', {
      meetId: meeting.slug,
      token: named.token,
      text: `\u202Bright\u202C to left`,
    });
    expect(fromAccount.body.data!.data).toMatchObject({ text: 'right to left' });
    expect(JSON.stringify(fromAccount.body.data!.data)).not.toMatch(BIDI);
  });
});
