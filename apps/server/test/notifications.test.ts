import { REALTIME_PROTOCOL_VERSION, USER_EVENT, UserEventSchema, type UserEvent } from '@meetcast/contracts';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './test-database.js';
import { startTestServer, type TestServer } from './test-server.js';

type Listed = { data: { id: number; text: string; created_at: number }[] };

describe.each(BACKENDS)('notifications on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server.close());

  it('lists, clears and keeps them private to their owner', async () => {
    const ann = await server.signUp();
    const bob = await server.signUp();
    const first = await server.built.context.notifier.notify(ann.user.id, 'Meeting <b>Standup</b> starts soon');
    await server.built.context.notifier.notify(ann.user.id, 'Second');
    const listed = await server.post<Listed>('get-user-notification.php', { token: ann.token });
    expect(listed.body.data?.data.map((n) => n.text)).toEqual(['Second', 'Meeting <b>Standup</b> starts soon']);
    expect(listed.body.data?.data[0]?.created_at).toBeGreaterThan(1_700_000_000);

    const stolen = await server.post('clear-user-notification.php', { token: bob.token, id: first.id });
    expect(stolen.httpStatus).toBe(404);
    const cleared = await server.post<Listed>('clear-user-notification.php', { token: ann.token, id: first.id });
    expect(cleared.body.data?.data.map((n) => n.text)).toEqual(['Second']);
    expect((await server.post('clear-user-notification.php', { token: ann.token, id: 'abc' })).httpStatus).toBe(400);
    expect((await server.post('get-user-notification.php', {})).httpStatus).toBe(401);
  });

  it('pushes new notifications live over Socket.IO', async () => {
    const ann = await server.signUp();
    const socket = connect(server.baseUrl, {
      auth: { token: ann.token, protocol: REALTIME_PROTOCOL_VERSION },
      transports: ['websocket'],
    });
    const received = new Promise<UserEvent>((resolve) =>
      socket.on(USER_EVENT, (payload: unknown) => resolve(UserEventSchema.parse(payload))),
    );
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', resolve);
      socket.on('connect_error', reject);
    });
    await server.built.context.notifier.notify(ann.user.id, 'Live!');
    const event = await received;
    expect(event).toMatchObject({ type: 'notification.created', notification: { text: 'Live!' } });
    socket.close();
  });

  it('tells a tab at once when its session ends, and only that tab', async () => {
    const ann = await server.signUp();
    const other = await server.post<{ token: string }>('login.php', { email: ann.email, password: ann.password });
    const open = async (token: string) => {
      const socket = connect(server.baseUrl, {
        auth: { token, protocol: REALTIME_PROTOCOL_VERSION },
        transports: ['websocket'],
      });
      const events: UserEvent[] = [];
      socket.on(USER_EVENT, (payload: unknown) => events.push(UserEventSchema.parse(payload)));
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', resolve);
        socket.on('connect_error', reject);
      });
      const ended = new Promise<string>((resolve) => socket.on('disconnect', (reason) => resolve(reason)));
      return { socket, events, ended };
    };
    const first = await open(ann.token);
    const second = await open(other.body.data!.token);
    expect((await server.post('logout.php', { token: ann.token })).httpStatus).toBe(200);
    expect(await first.ended).toBe('io server disconnect');
    expect(first.events).toEqual([{ type: 'session.revoked' }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.socket.connected).toBe(true);
    expect(second.events).toEqual([]);
    second.socket.close();
  });

  it('refuses realtime connections without a valid token', async () => {
    const socket = connect(server.baseUrl, {
      auth: { token: 'nope', protocol: REALTIME_PROTOCOL_VERSION },
      transports: ['websocket'],
    });
    const error = await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
    expect(error.message).toBe('unauthorized');
    socket.close();
  });
});
