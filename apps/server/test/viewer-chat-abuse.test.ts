import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER_BROWSER_COOKIE } from '../src/viewer-chat/viewer-identity.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';
import { liveBroadcast, type PostAnswer } from './viewer-chat-helpers.js';

/**
 * A ban and slow mode hold against a new identity: from the same browser (its cookie, set by the
 * server and out of the page's reach) and, for a while, from the same address. Each viewer here
 * speaks from an address of its own (X-Forwarded-For through a trusted local proxy).
 */
describe.each(BACKENDS)('viewer chat against new identities (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;

  beforeAll(async () => {
    [server, host] = await startWithPeople({ backend, env: { TRUST_PROXY: '127.0.0.1' } }, 'Strict Host');
  });
  afterAll(() => server.close());

  /** A browser: its address, and the cookie jar the server's answers fill. */
  const browser = (address: string) => {
    let cookie = '';
    let isHttpOnly = false;
    const call = async <T>(name: string, fields: Record<string, string>) => {
      const response = await fetch(`${server.baseUrl}/api/${name}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': address,
          ...(cookie ? { cookie } : {}),
        },
        body: new URLSearchParams(fields),
      });
      const set = response.headers.get('set-cookie');
      if (set?.startsWith(`${VIEWER_BROWSER_COOKIE}=`)) {
        cookie = set.split(';')[0]!;
        isHttpOnly = /;\s*HttpOnly/i.test(set);
      }
      return { status: response.status, body: (await response.json()) as { message: string; data?: T } };
    };
    return {
      call,
      setCookie: () => (isHttpOnly ? cookie : 'not HttpOnly'),
      identity: async () =>
        (await call<{ viewer_token: string }>('get-viewer-chat-identity.php', {})).body.data!.viewer_token,
    };
  };

  it('refuses a banned guest under a new identity from the same browser or address, until let back in', async () => {
    const meeting = await liveBroadcast(server, host);
    const say = (from: ReturnType<typeof browser>, viewerToken: string, text: string) =>
      from.call<PostAnswer>('post-viewer-chat.php', {
        meetId: meeting.slug,
        viewer_token: viewerToken,
        display_name: 'Troll',
        text,
      });
    const troll = browser('198.51.100.7');
    const first = await troll.identity();
    const posted = await say(troll, first, 'spam');
    expect(posted.status).toBe(200);
    const banned = await server.post('moderate-viewer-chat.php', {
      meetId: meeting.slug,
      token: host.token,
      id: posted.body.data!.data.id,
      action: 'ban',
    });
    expect(banned.httpStatus).toBe(200);
    expect((await say(troll, first, 'again')).status).toBe(403);

    // The same browser asking for a new identity gets its own back: still banned.
    const second = await troll.identity();
    const again = await say(troll, second, 'new me');
    expect(again.status).toBe(403);
    expect(again.body.message).toMatch(/banned/);
    // Cookies cleared (a new browser) at the same address: refused too, for a while.
    const cleared = browser('198.51.100.7');
    expect((await say(cleared, await cleared.identity(), 'cleared')).status).toBe(403);
    // An account at the same address (an office, a school) is someone else.
    const colleague = await server.signUp({ username: 'Same Office' });
    const colleagueSays = await browser('198.51.100.7').call('post-viewer-chat.php', {
      meetId: meeting.slug,
      token: colleague.token,
      text: 'not with them',
    });
    expect(colleagueSays.status).toBe(200);
    // Someone at another address is not touched.
    const neighbour = browser('198.51.100.8');
    expect((await say(neighbour, await neighbour.identity(), 'hello')).status).toBe(200);

    // Let back in: the identity, the browser and the address alike.
    const unbanned = await server.post('moderate-viewer-chat.php', {
      meetId: meeting.slug,
      token: host.token,
      id: posted.body.data!.data.id,
      action: 'unban',
    });
    expect(unbanned.httpStatus).toBe(200);
    expect((await say(troll, second, 'sorry')).status).toBe(200);
    expect((await say(cleared, await cleared.identity(), 'me too')).status).toBe(200);
    // The browser's id travels only in the server's HttpOnly cookie.
    expect(troll.setCookie()).toMatch(new RegExp(`^${VIEWER_BROWSER_COOKIE}=`));
  });

  it('holds slow mode per address: twenty identities from one address post one message', async () => {
    const meeting = await liveBroadcast(server, host);
    const slow = await server.post('set-viewer-chat-slow-mode.php', {
      meetId: meeting.slug,
      token: host.token,
      seconds: 30,
    });
    expect(slow.httpStatus).toBe(200);
    // Twenty browsers behind one address, each with an identity of its own, all at once.
    const crowd = Array.from({ length: 20 }, () => browser('192.0.2.50'));
    const tokens = await Promise.all(crowd.map((member) => member.identity()));
    expect(new Set(tokens).size).toBe(20);
    const answers = await Promise.all(
      crowd.map((member, index) =>
        member.call('post-viewer-chat.php', {
          meetId: meeting.slug,
          viewer_token: tokens[index]!,
          display_name: `Bot ${index}`,
          text: `message ${index}`,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, ...Array.from({ length: 19 }, () => 429)]);
    expect(answers.find((answer) => answer.status === 429)!.body.message).toMatch(/Slow mode/);
    // Another address has its own turn.
    const elsewhere = browser('192.0.2.51');
    const own = await elsewhere.call('post-viewer-chat.php', {
      meetId: meeting.slug,
      viewer_token: await elsewhere.identity(),
      display_name: 'Elsewhere',
      text: 'hi',
    });
    expect(own.status).toBe(200);
  });
});
