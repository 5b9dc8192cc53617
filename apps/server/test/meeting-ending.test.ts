import { eq, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JanusClient } from '../src/media/janus-client.js';
import { MeetingClosedError } from '../src/media/media-service.js';
import { insertMeeting, RoomClient, type JoinAnswer } from './room-helpers.js';
import { BACKENDS } from './test-database.js';
import { startTestServer, type SignedIn, type TestServer } from './test-server.js';

// Every way a meeting ends (host, administrator, deletion of the meeting or of its host's account)
// tells the people in it, destroys its Janus room and lifts its lock (rooms/end-meetings.ts).
describe.each(BACKENDS)('ending meetings on %s', (backend) => {
  let server: TestServer;
  let admin: SignedIn;
  const clients: RoomClient[] = [];

  const stored = async (id: number) =>
    (await server.built.context.db.select().from(meetings).where(eq(meetings.id, id)))[0];

  /** Whether Janus itself still has the room, asked with the API secret as the server asks. */
  async function roomExists(room: number) {
    // The managed Janus starts with the first room, so its address is known from then on.
    const managed = server.built.context.media.managed!;
    const janus = new JanusClient(managed.url!, { apiSecret: managed.apiSecret });
    await janus.connect();
    try {
      return await janus.exists(room);
    } finally {
      janus.close();
    }
  }

  /** A meeting with a guest and its host in the room, locked by the host; answers its Janus room. */
  async function liveMeeting(host: SignedIn) {
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const enter = async (fields: Record<string, string>) => {
      const joined = await server.post<JoinAnswer>('join-room.php', { meetId: meeting.slug, ...fields });
      expect(joined.httpStatus).toBe(200);
      const client = new RoomClient(server.baseUrl, joined.body.data!.grant);
      clients.push(client);
      await client.next('room.state');
      return client;
    };
    const guest = await enter({ display_name: 'Guest Greta' });
    const hostClient = await enter({ token: host.token });
    expect(await hostClient.send({ type: 'host.lock', locked: true })).toEqual({ ok: true });
    const placed = await stored(meeting.id);
    expect(placed).toMatchObject({ state: 'live', isLocked: true });
    expect(await roomExists(placed!.janusRoomId!)).toBe(true);
    return { meeting, guest, room: placed!.janusRoomId! };
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    // The first account of the installation is its administrator.
    admin = await server.signUp({ username: 'Ada Admin' });
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await server.close();
  });

  it('tears the room down when its host deletes a live meeting', async () => {
    const host = await server.signUp({ username: 'Deleting Dana' });
    const { meeting, guest, room } = await liveMeeting(host);
    const deleted = await server.post('delete-meeting.php', { token: host.token, id: meeting.id });
    expect(deleted.httpStatus).toBe(200);
    await guest.next('room.ended');
    expect(await stored(meeting.id)).toBeUndefined();
    expect(await roomExists(room)).toBe(false);
  });

  it('tears the rooms down when the host deletes their account during a meeting', async () => {
    const host = await server.signUp({ username: 'Leaving Lou' });
    const upcoming = await liveMeeting(host);
    // Past its planned end, a live meeting is no longer "upcoming": it goes with the account all the same.
    const overrun = await liveMeeting(host);
    await server.built.context.db
      .update(meetings)
      .set({ startTime: new Date(Date.now() - 7200_000), endTime: new Date(Date.now() - 3600_000) })
      .where(eq(meetings.id, overrun.meeting.id));
    const gone = await server.post('delete-account.php', { token: host.token, password: host.password });
    expect(gone.httpStatus).toBe(200);
    await upcoming.guest.next('room.ended');
    await overrun.guest.next('room.ended');
    expect(await roomExists(upcoming.room)).toBe(false);
    expect(await roomExists(overrun.room)).toBe(false);
    expect(await stored(upcoming.meeting.id)).toBeUndefined();
  });

  it('ends a live meeting for an administrator: room gone, meeting unlocked, no new placement', async () => {
    const host = await server.signUp({ username: 'Ended Eve' });
    const { meeting, guest, room } = await liveMeeting(host);
    const ended = await server.post('admin-end-meeting.php', { token: admin.token, id: meeting.id });
    expect(ended.httpStatus).toBe(200);
    await guest.next('room.ended');
    expect(await stored(meeting.id)).toMatchObject({ state: 'ended', isLocked: false, janusRoomId: null });
    expect(await roomExists(room)).toBe(false);
    // A join that read the meeting before it ended and places its room after: nothing is placed.
    await expect(server.built.context.media.ensureRoom(meeting)).rejects.toBeInstanceOf(MeetingClosedError);
    expect(await stored(meeting.id)).toMatchObject({ janusServer: null, janusRoomId: null });
  });

  it('tears the room down when an administrator deletes a live meeting', async () => {
    const host = await server.signUp({ username: 'Removed Rui' });
    const { meeting, guest, room } = await liveMeeting(host);
    const deleted = await server.post('admin-delete-meeting.php', { token: admin.token, id: meeting.id });
    expect(deleted.httpStatus).toBe(200);
    await guest.next('room.ended');
    expect(await roomExists(room)).toBe(false);
  });

  it('tears the room down when an administrator deletes the host of a live meeting', async () => {
    const host = await server.signUp({ username: 'Deleted Dev' });
    const { guest, room } = await liveMeeting(host);
    const deleted = await server.post('admin-delete-users.php', { token: admin.token, ids: String(host.user.id) });
    expect(deleted.httpStatus).toBe(200);
    await guest.next('room.ended');
    expect(await roomExists(room)).toBe(false);
  });
});
