import type { LiveBroadcast } from '@meetcast/contracts';
import { channels, eq, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMeeting } from './room-helpers.js';
import { BACKENDS } from './test-database.js';
import { startTestServer, startWithPeople, type SignedIn, type TestServer } from './test-server.js';
import { chat, guestIdentity, liveBroadcast, ViewerChatClient, type PostAnswer } from './viewer-chat-helpers.js';

/**
 * Viewer chat over real HTTP and Socket.IO: guests and accounts post, moderators delete, ban, time
 * out, pin and slow the chat down, and a private meeting's chat is never shown.
 */
describe.each(BACKENDS)('viewer chat (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  let viewer: SignedIn;
  const clients: ViewerChatClient[] = [];

  beforeAll(async () => {
    // Each viewer speaks from an address of its own (a ban reaches the address too).
    [server, host, viewer] = await startWithPeople(
      { backend, env: { TRUST_PROXY: '127.0.0.1' } },
      'Chat Host',
      'Vera Viewer',
    );
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await server.close();
  });

  const listen = (auth: Record<string, unknown>) => {
    const client = new ViewerChatClient(server.baseUrl, auth);
    clients.push(client);
    return client;
  };

  it('lets a guest and a signed-in viewer chat, live over Socket.IO, with offsets for the replay', async () => {
    const meeting = await liveBroadcast(server, host);
    const listener = listen({ meetId: meeting.slug });
    await listener.connected();
    const guest = await guestIdentity(server);
    // The same identity comes back when the browser still holds a valid one.
    expect(
      (await server.post<{ viewer_token: string }>('get-viewer-chat-identity.php', { viewer_token: guest })).body.data
        ?.viewer_token,
    ).toBe(guest);

    const nameless = await server.post('post-viewer-chat.php', {
      meetId: meeting.slug,
      viewer_token: guest,
      text: 'hi',
    });
    expect(nameless.httpStatus).toBe(400);
    const fromGuest = await server.post<PostAnswer>('post-viewer-chat.php', {
      meetId: meeting.slug,
      viewer_token: guest,
      display_name: 'Gus',
      text: 'Hello from <b>nowhere</b> https://example.com',
    });
    expect(fromGuest.httpStatus).toBe(200);
    expect(fromGuest.body.data!.data).toMatchObject({ author: { kind: 'guest', display_name: 'Gus', is_host: false } });
    const fromUser = await server.post<PostAnswer>('post-viewer-chat.php', {
      meetId: meeting.slug,
      token: viewer.token,
      display_name: 'Someone Else',
      text: 'Hi all',
    });
    expect(fromUser.body.data!.data.author).toEqual({ kind: 'user', display_name: 'Vera Viewer', is_host: false });
    const fromHost = await server.post<PostAnswer>('post-viewer-chat.php', {
      meetId: meeting.slug,
      token: host.token,
      text: 'Welcome',
    });
    expect(fromHost.body.data!.data.author.is_host).toBe(true);

    const pushed = await listener.next('message.created', (event) => event.message.id === fromUser.body.data!.data.id);
    expect(pushed.message.text).toBe('Hi all');

    const state = (await chat(server, meeting.slug, { viewer_token: guest })).body.data!.data!;
    expect(state.messages.map((message) => message.text)).toEqual([
      'Hello from <b>nowhere</b> https://example.com',
      'Hi all',
      'Welcome',
    ]);
    expect(state).toMatchObject({ is_open: true, can_moderate: false, self: { is_guest: true, is_banned: false } });
    for (const message of state.messages) expect(message.offset_seconds).toBeGreaterThanOrEqual(0);
    expect((await chat(server, meeting.slug, { token: host.token })).body.data!.data!.can_moderate).toBe(true);

    // A forged identity is no identity.
    const forged = await server.post('post-viewer-chat.php', {
      meetId: meeting.slug,
      viewer_token: `${guest.slice(0, -4)}AAAA`,
      display_name: 'Mallory',
      text: 'spoof',
    });
    expect(forged.httpStatus).toBe(400);
  });

  it('validates every field and refuses a chat without a running broadcast', async () => {
    const meeting = await liveBroadcast(server, host);
    const guest = await guestIdentity(server);
    const post = (fields: Record<string, string>) =>
      server.post('post-viewer-chat.php', {
        meetId: meeting.slug,
        viewer_token: guest,
        display_name: 'Gus',
        ...fields,
      });
    expect((await post({ text: '' })).httpStatus).toBe(400);
    expect((await post({ text: '   ' })).httpStatus).toBe(400);
    expect((await post({ text: 'x'.repeat(501) })).httpStatus).toBe(400);
    expect((await post({ text: 'bell\u0007' })).httpStatus).toBe(400);
    expect((await post({ text: 'ok', display_name: 'n'.repeat(41) })).httpStatus).toBe(400);
    expect((await post({ text: 'ok', display_name: 'esc\u001b' })).httpStatus).toBe(400);
    expect((await post({ text: 'ok', viewer_token: 'v'.repeat(301) })).httpStatus).toBe(400);
    expect((await post({ text: 'x'.repeat(500) })).httpStatus).toBe(200);
    const unknown = await server.post('get-viewer-chat.php', { meetId: 'no-such-meeting' });
    expect(unknown.httpStatus).toBe(404);
    expect(unknown.body.status).toBe('error');

    const quiet = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    expect((await chat(server, quiet.slug)).body.data!.data).toBeNull();
    const closed = await server.post('post-viewer-chat.php', { meetId: quiet.slug, token: viewer.token, text: 'hi' });
    expect(closed.httpStatus).toBe(409);

    const stopped = await server.post<{ data: LiveBroadcast }>('stop-broadcast.php', {
      token: host.token,
      meetId: meeting.slug,
    });
    expect(stopped.body.data!.data.state).toBe('ended');
    expect((await post({ text: 'too late' })).httpStatus).toBe(409);
    const replay = (await chat(server, meeting.slug)).body.data!.data!;
    expect(replay).toMatchObject({ is_open: false, broadcast_state: 'ended' });
    expect(replay.messages).toHaveLength(1);
  });

  it('never shows a private or password-protected meeting’s chat to outsiders', async () => {
    for (const options of [{ isPrivate: 1 as const }, { password: 'secret-pass' }]) {
      const meeting = await liveBroadcast(server, host, options);
      for (const fields of [{}, { token: viewer.token }, { viewer_token: await guestIdentity(server) }]) {
        expect((await chat(server, meeting.slug, fields)).httpStatus).toBe(404);
        const posted = await server.post('post-viewer-chat.php', {
          meetId: meeting.slug,
          ...fields,
          display_name: 'X',
          text: 'hi',
        });
        expect(posted.httpStatus).toBe(404);
      }
      expect(await listen({ meetId: meeting.slug, token: viewer.token }).refused()).toBe('not_found');
      // Its hosts still moderate it.
      expect((await chat(server, meeting.slug, { token: host.token })).httpStatus).toBe(200);
    }
    // A channel an administrator hid takes its broadcasts' chats with it.
    const owner = await server.signUp({ username: 'Hidden Channel' });
    const created = await server.post<{ id: number }>('create-channel.php', {
      token: owner.token,
      name: 'Hidden',
      slug: `hidden-${Date.now()}`,
    });
    const channelId = created.body.data!.id;
    await server.built.context.db.update(channels).set({ hiddenAt: new Date() }).where(eq(channels.id, channelId));
    const meeting = await liveBroadcast(server, owner);
    await server.built.context.db.update(meetings).set({ channelId }).where(eq(meetings.id, meeting.id));
    expect((await chat(server, meeting.slug)).httpStatus).toBe(404);
  });

  it('lets moderators delete, pin, ban and time out; others may not; bans hold by account and by browser', async () => {
    const meeting = await liveBroadcast(server, host);
    const guest = await guestIdentity(server);
    const guestListener = listen({ meetId: meeting.slug, viewer_token: guest });
    await guestListener.connected();
    const addresses: Record<string, string> = { [guest]: '203.0.113.10', [viewer.token]: '203.0.113.20' };
    const say = async (fields: Record<string, string>, address?: string) =>
      server.post<PostAnswer>(
        'post-viewer-chat.php',
        { meetId: meeting.slug, ...fields },
        { 'x-forwarded-for': address ?? addresses[fields.viewer_token ?? fields.token ?? ''] ?? '203.0.113.99' },
      );
    const guestMessage = (await say({ viewer_token: guest, display_name: 'Gus', text: 'spam spam' })).body.data!.data;
    const userMessage = (await say({ token: viewer.token, text: 'a fair point' })).body.data!.data;
    const hostMessage = (await say({ token: host.token, text: 'house rules' })).body.data!.data;

    for (const [name, extra] of [
      ['delete-viewer-chat-message.php', {}],
      ['moderate-viewer-chat.php', { action: 'ban' }],
      ['pin-viewer-chat-message.php', {}],
      ['set-viewer-chat-slow-mode.php', { seconds: 5 }],
      ['show-viewer-chat-banner.php', {}],
    ] as const) {
      const refused = await server.post(name, {
        meetId: meeting.slug,
        token: viewer.token,
        id: guestMessage.id,
        ...extra,
      });
      expect(refused.httpStatus, name).toBe(403);
    }
    const badAction = await server.post('moderate-viewer-chat.php', {
      meetId: meeting.slug,
      token: host.token,
      id: guestMessage.id,
      action: 'explode',
    });
    expect(badAction.httpStatus).toBe(400);

    const pinned = await server.post('pin-viewer-chat-message.php', {
      meetId: meeting.slug,
      token: host.token,
      id: userMessage.id,
    });
    expect(pinned.httpStatus).toBe(200);
    expect((await guestListener.next('pinned.changed')).message?.id).toBe(userMessage.id);
    expect((await chat(server, meeting.slug)).body.data!.data!.pinned?.text).toBe('a fair point');

    const banned = await server.post('moderate-viewer-chat.php', {
      meetId: meeting.slug,
      token: host.token,
      id: guestMessage.id,
      action: 'ban',
    });
    expect(banned.httpStatus).toBe(200);
    expect(await guestListener.next('self.restricted')).toMatchObject({ is_banned: true, muted_until: null });
    const again = await say({ viewer_token: guest, display_name: 'Gus again', text: 'let me in' });
    expect(again.httpStatus).toBe(403);
    expect(again.body.message).toMatch(/banned/);
    expect((await chat(server, meeting.slug, { viewer_token: guest })).body.data!.data!.self.is_banned).toBe(true);
    // Another identity from the same address is refused for a while; from elsewhere it is someone else.
    const fresh = await guestIdentity(server);
    expect((await say({ viewer_token: fresh, display_name: 'Fresh', text: 'hi' }, '203.0.113.10')).httpStatus).toBe(
      403,
    );
    expect((await say({ viewer_token: fresh, display_name: 'Fresh', text: 'hello' }, '203.0.113.11')).httpStatus).toBe(
      200,
    );

    const timedOut = await server.post('moderate-viewer-chat.php', {
      meetId: meeting.slug,
      token: host.token,
      id: userMessage.id,
      action: 'timeout',
      minutes: 5,
    });
    expect(timedOut.httpStatus).toBe(200);
    const muted = await say({ token: viewer.token, text: 'still here?' });
    expect(muted.httpStatus).toBe(403);
    const self = (await chat(server, meeting.slug, { token: viewer.token })).body.data!.data!.self;
    expect(self.muted_until).toBeGreaterThan(Math.floor(Date.now() / 1000) + 200);

    const hostBan = await server.post('moderate-viewer-chat.php', {
      meetId: meeting.slug,
      token: host.token,
      id: hostMessage.id,
      action: 'ban',
    });
    expect(hostBan.httpStatus).toBe(403);

    const unbanned = await server.post('moderate-viewer-chat.php', {
      meetId: meeting.slug,
      token: host.token,
      id: guestMessage.id,
      action: 'unban',
    });
    expect(unbanned.httpStatus).toBe(200);
    expect((await say({ viewer_token: guest, display_name: 'Gus', text: 'sorry' })).httpStatus).toBe(200);

    const deleted = await server.post('delete-viewer-chat-message.php', {
      meetId: meeting.slug,
      token: host.token,
      id: guestMessage.id,
    });
    expect(deleted.httpStatus).toBe(200);
    expect((await guestListener.next('message.deleted')).id).toBe(guestMessage.id);
    const texts = (await chat(server, meeting.slug)).body.data!.data!.messages.map((message) => message.text);
    expect(texts).not.toContain('spam spam');
    const deletedTwice = await server.post('delete-viewer-chat-message.php', {
      meetId: meeting.slug,
      token: host.token,
      id: guestMessage.id,
    });
    expect(deletedTwice.httpStatus).toBe(404);
    // A message of another meeting is not this meeting's to moderate.
    const other = await liveBroadcast(server, host);
    expect(
      (
        await server.post('delete-viewer-chat-message.php', {
          meetId: other.slug,
          token: host.token,
          id: userMessage.id,
        })
      ).httpStatus,
    ).toBe(404);
  });

  it('puts a message on the stream as the overlay banner and clears it', async () => {
    const meeting = await liveBroadcast(server, host);
    const message = (
      await server.post<PostAnswer>('post-viewer-chat.php', {
        meetId: meeting.slug,
        token: viewer.token,
        text: 'Greetings from Oslo',
      })
    ).body.data!.data;
    const shown = await server.post('show-viewer-chat-banner.php', {
      meetId: meeting.slug,
      token: host.token,
      id: message.id,
    });
    expect(shown.httpStatus).toBe(200);
    const overlay = async () =>
      (await server.post<{ data: LiveBroadcast }>('get-broadcast.php', { meetId: meeting.slug })).body.data!.data
        .overlay;
    expect((await overlay()).banner).toBe('Vera Viewer: Greetings from Oslo');
    await server.post('show-viewer-chat-banner.php', { meetId: meeting.slug, token: host.token });
    expect((await overlay()).banner).toBeNull();
  });

  it('slows the chat down per viewer (not its hosts) and tells everyone', async () => {
    const meeting = await liveBroadcast(server, host);
    const listener = listen({ meetId: meeting.slug });
    await listener.connected();
    const slow = await server.post('set-viewer-chat-slow-mode.php', {
      meetId: meeting.slug,
      token: host.token,
      seconds: 30,
    });
    expect(slow.httpStatus).toBe(200);
    expect((await listener.next('slow_mode.changed')).seconds).toBe(30);
    const tooSlow = await server.post('set-viewer-chat-slow-mode.php', {
      meetId: meeting.slug,
      token: host.token,
      seconds: 301,
    });
    expect(tooSlow.httpStatus).toBe(400);
    const say = (fields: Record<string, string>) =>
      server.post('post-viewer-chat.php', { meetId: meeting.slug, ...fields });
    expect((await say({ token: viewer.token, text: 'first' })).httpStatus).toBe(200);
    const second = await say({ token: viewer.token, text: 'second' });
    expect(second.httpStatus).toBe(429);
    expect(second.body.message).toMatch(/Slow mode/);
    expect((await say({ token: host.token, text: 'one' })).httpStatus).toBe(200);
    expect((await say({ token: host.token, text: 'two' })).httpStatus).toBe(200);
    expect((await chat(server, meeting.slug)).body.data!.data!.slow_mode_seconds).toBe(30);
  });
});

describe('viewer chat rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { RATE_LIMIT_MULTIPLIER: '1' });
  });
  afterAll(() => server.close());

  it('refuses a viewer’s sixth message within ten seconds with 429, others still post', async () => {
    const host = await server.signUp({ username: 'Rate Host' });
    const meeting = await liveBroadcast(server, host);
    const guest = await guestIdentity(server);
    const say = (viewerToken: string, text: string) =>
      server.post('post-viewer-chat.php', {
        meetId: meeting.slug,
        viewer_token: viewerToken,
        display_name: 'Quick',
        text,
      });
    for (let index = 0; index < 5; index += 1) expect((await say(guest, `message ${index}`)).httpStatus).toBe(200);
    const refused = await say(guest, 'one more');
    expect(refused.httpStatus).toBe(429);
    expect(refused.body.status).toBe('error');
    expect((await say(await guestIdentity(server), 'someone else')).httpStatus).toBe(200);
  });
});
