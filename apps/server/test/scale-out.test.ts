import { REALTIME_PROTOCOL_VERSION, USER_EVENT } from '@meetcast/contracts';
import { mediaServers } from '@meetcast/db';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.js';
import { JanusBrowser } from './janus-browser.js';
import { postForm as post, startCluster, type TestCluster } from './test-cluster.js';
import { uniqueEmail } from './test-server.js';

/** Two server processes on one PostgreSQL and one Redis must behave as one installation. */
describe('two server processes sharing PostgreSQL and Redis', () => {
  let cluster: TestCluster;
  let apps: BuiltApp[];
  let urls: string[];

  beforeAll(async () => void ({ apps, urls } = cluster = await startCluster('scale')));
  afterAll(() => cluster.close());

  // Confirmed on the other process: codes live in the shared database.
  const account = () => cluster.signUp('Scale', 'scale out pass', 1);

  it('revokes a session everywhere at once, cached or not', async () => {
    const { token } = await account();
    expect((await post(urls[0]!, 'tokenverify.php', { token })).httpStatus).toBe(200);
    expect((await post(urls[1]!, 'tokenverify.php', { token })).httpStatus).toBe(200);
    expect((await post(urls[0]!, 'logout.php', { token })).httpStatus).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await post(urls[1]!, 'tokenverify.php', { token })).httpStatus).toBe(401);
  });

  it('counts rate limits across processes', async () => {
    const email = uniqueEmail('shared-limit');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push((await post(urls[attempt % 2]!, 'login.php', { email, password: 'guess guess' })).httpStatus);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('delivers a notification raised on one process to a socket held by the other', async () => {
    const { token, userId } = await account();
    const socket = connect(urls[1]!, {
      auth: { token, protocol: REALTIME_PROTOCOL_VERSION },
      transports: ['websocket'],
    });
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', resolve);
      socket.on('connect_error', reject);
    });
    const received = new Promise<unknown>((resolve) => socket.on(USER_EVENT, resolve));
    await apps[0]!.context.notifier.notify(userId, 'from the other process');
    expect(await received).toMatchObject({
      type: 'notification.created',
      notification: { text: 'from the other process' },
    });
    socket.close();
  });
  it('keeps a meeting on one Janus whichever process people come through, each with its own managed Janus', async () => {
    const { token } = await account();
    const made = await fetch(`${urls[0]}/api/add-instant-meeting.php`, {
      method: 'POST',
      body: new URLSearchParams({ token, name: 'Split test', slug: `split-${Date.now()}` }),
    });
    const slug = ((await made.json()) as { data: { url_slug: string } }).data.url_slug;
    const joinThrough = async (index: number, name: string) => {
      const answer = await fetch(`${urls[index]}/api/join-room.php`, {
        method: 'POST',
        body: new URLSearchParams({ meetId: slug, display_name: name }),
      });
      const { grant } = ((await answer.json()) as { data: { grant: string } }).data;
      const browser = await JanusBrowser.open(
        `${urls[index]!.replace('http', 'ws')}/janus?grant=${encodeURIComponent(grant)}`,
      );
      const session = (await browser.request({ janus: 'create' })).data as { id: number };
      const handle = (
        await browser.request({ janus: 'attach', session_id: session.id, plugin: 'janus.plugin.videoroom' })
      ).data as { id: number };
      const send = (body: Record<string, unknown>, until?: (m: Record<string, unknown>) => boolean) =>
        browser.request({ janus: 'message', session_id: session.id, handle_id: handle.id, body }, until);
      return { browser, send };
    };
    const ann = await joinThrough(0, 'Ann');
    const joined = await ann.send({ request: 'join', ptype: 'publisher' }, (m) => m.janus === 'event');
    expect(joined.plugindata).toMatchObject({ data: { videoroom: 'joined' } });
    // Even when the instance's process stopped refreshing its registration (killed outright), the
    // room stays where it is while that Janus still answers.
    await apps[0]!.context.db.update(mediaServers).set({ heartbeatAt: new Date(Date.now() - 3_600_000) });
    const ben = await joinThrough(1, 'Ben');
    await ben.send({ request: 'join', ptype: 'publisher' }, (m) => m.janus === 'event');
    // Both are in the one room, on the Janus of the process Ann came through.
    const listed = await ben.send({ request: 'listparticipants' });
    const names = ((listed.plugindata as { data: { participants?: { display?: string }[] } }).data.participants ?? [])
      .map((p) => p.display ?? '')
      .sort();
    expect(names).toHaveLength(2);
    ann.browser.socket.close();
    ben.browser.socket.close();
  }, 60_000);
});
