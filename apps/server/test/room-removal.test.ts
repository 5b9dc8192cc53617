import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMeeting, joinAs, RoomClients } from './room-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

/**
 * A removed person reaches at most the lobby: the browser is known by the HttpOnly cookie the server
 * issued (never by what the page says), an account by itself, and a guest also by their address.
 */
describe.each(BACKENDS)('removal from a meeting on %s', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  const rooms = new RoomClients(() => server);
  const { client, join } = rooms;

  beforeAll(async () => {
    // Trusts its own loopback as a proxy, so that tests can join from several addresses.
    [server, host] = await startWithPeople({ backend, env: { TRUST_PROXY: '127.0.0.1' } }, 'Hosting Hanna');
  });
  afterAll(() => rooms.closeWith(server));

  it('sends a removed guest to the lobby whatever name, identity or sign-in they come back with', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const hostClient = client((await join({ meetId: meeting.slug, token: host.token })).body.data!.grant);
    await hostClient.next('room.state');
    const asked = { meetId: meeting.slug, browser_id: 'browser-identity-0123456789abcdef' };
    const trollAddress = '203.0.113.66';
    const first = await joinAs(server, { ...asked, display_name: 'Troll' }, { address: trollAddress });
    expect(first.setCookie[0]).toMatch(/^meetcastBrowser=[\w-]+\.[\da-f]+;.*HttpOnly/i);
    const troll = first.body.data!;
    const trollClient = client(troll.grant);
    await trollClient.next('room.state');
    expect(await hostClient.send({ type: 'host.remove', participant_id: troll.participant_id })).toEqual({ ok: true });
    await trollClient.next('removed');

    const browser = { cookie: first.cookie, address: '198.51.100.20' };
    const comebacks = [
      // Another name from the same browser, at another address.
      joinAs(server, { ...asked, display_name: 'Nice Person' }, browser),
      // The same address with an identity of their own choosing, or none, and no cookie.
      joinAs(
        server,
        { ...asked, display_name: 'Fresh Start', browser_id: 'another-identity-0123456789ab' },
        {
          address: trollAddress,
        },
      ),
      joinAs(server, { meetId: meeting.slug, display_name: 'Nobody' }, { address: trollAddress }),
      // Signed in to an account from the same browser.
      joinAs(server, { meetId: meeting.slug, token: (await server.signUp({ username: 'Alter Ego' })).token }, browser),
    ];
    for (const comeback of await Promise.all(comebacks)) expect(comeback.body.data?.state).toBe('lobby');
    const forged = `${first.cookie!.split('.')[0]}.${'0'.repeat(32)}`;
    const someoneElse = await joinAs(
      server,
      { ...asked, display_name: 'Someone Else' },
      {
        cookie: forged,
        address: '198.51.100.21',
      },
    );
    expect(someoneElse.body.data?.state).toBe('admitted');
    expect(someoneElse.cookie).not.toBe(forged);

    // The host may let them back in; after that, their removal no longer counts.
    const renamed = await joinAs(server, { meetId: meeting.slug, display_name: 'Nice Person' }, browser);
    const knocking = client(renamed.body.data!.grant);
    await hostClient.next('lobby.changed', (e) =>
      e.lobby.some((p) => p.participant_id === renamed.body.data!.participant_id),
    );
    expect(await hostClient.send({ type: 'host.admit', participant_id: renamed.body.data!.participant_id })).toEqual({
      ok: true,
    });
    await knocking.next('lobby.admitted');
    const later = await joinAs(server, { meetId: meeting.slug, display_name: 'Nice Person' }, browser);
    expect(later.body.data?.state).toBe('admitted');
    expect((await join({ meetId: meeting.slug, display_name: 'Bad Id', browser_id: 'x' })).httpStatus).toBe(400);
  });

  it('sends a removed account holder who signs out to the lobby when they come back as a guest', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const hostClient = client((await join({ meetId: meeting.slug, token: host.token })).body.data!.grant);
    await hostClient.next('room.state');
    const mallory = await server.signUp({ username: 'Mallory' });
    const signedIn = await joinAs(server, { meetId: meeting.slug, token: mallory.token }, { address: '203.0.113.67' });
    const malloryClient = client(signedIn.body.data!.grant);
    await malloryClient.next('room.state');
    expect(await hostClient.send({ type: 'host.remove', participant_id: signedIn.body.data!.participant_id })).toEqual({
      ok: true,
    });
    await malloryClient.next('removed');
    await server.post('logout.php', { token: mallory.token });
    const asGuest = await joinAs(
      server,
      { meetId: meeting.slug, display_name: 'Not Mallory' },
      {
        cookie: signedIn.cookie,
        address: '198.51.100.22',
      },
    );
    expect(asGuest.body.data?.state).toBe('lobby');
  });
});
