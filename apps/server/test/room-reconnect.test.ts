import { eq, meetingAttendance, meetings, roomParticipants } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JanusBrowser } from './janus-browser.js';
import { roomFeeds } from './janus-proxy-fixture.js';
import { insertMeeting, RoomClient, type JoinAnswer } from './room-helpers.js';
import { BACKENDS } from './test-database.js';
import { startTestServer, type SignedIn, type TestServer } from './test-server.js';

/** A connection that drops as a network cut does: the transport goes, no goodbye is said. */
function drop(client: RoomClient) {
  client.socket.io.engine.close();
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Servers of these tests, each with the graces it is started with; closed after the file. */
function useServer(backend: 'pglite' | 'postgres', env: Record<string, string>) {
  const made: { server?: TestServer; host?: SignedIn; clients: RoomClient[] } = { clients: [] };
  beforeAll(async () => {
    made.server = await startTestServer(backend, env);
    made.host = await made.server.signUp({ username: 'Roaming Host' });
  });
  afterAll(async () => {
    for (const client of made.clients) client.close();
    await made.server?.close();
  });
  const connect = (grant: string) => {
    const client = new RoomClient(made.server!.baseUrl, grant);
    made.clients.push(client);
    return client;
  };
  const join = async (fields: Record<string, string | number | undefined>) => {
    const answer = await made.server!.post<JoinAnswer>('join-room.php', fields);
    return answer.body.data!;
  };
  const meetingState = async (meetingId: number) =>
    (await made.server!.built.context.db.select().from(meetings).where(eq(meetings.id, meetingId)))[0]?.state;
  const participantRow = async (participantId: string) =>
    (
      await made.server!.built.context.db.select().from(roomParticipants).where(eq(roomParticipants.id, participantId))
    )[0]!;
  return { made, connect, join, meetingState, participantRow };
}

describe('a participant whose connections drop, with the default graces', () => {
  const { made, connect, join, meetingState, participantRow } = useServer('pglite', {});

  it('all three drop for longer than the empty grace and come back into the same meeting, seat and role', async () => {
    const server = made.server!;
    const wsUrl = (grant: string) => `${server.baseUrl.replace('http', 'ws')}/janus?grant=${encodeURIComponent(grant)}`;
    const instant = await insertMeeting(server, { hostId: made.host!.user.id, isSchedule: 0 });
    const host = await join({ meetId: instant.slug, token: made.host!.token });
    const participant = await join({ meetId: instant.slug, display_name: 'Pat Participant' });
    const guest = await join({ meetId: instant.slug, display_name: 'Gus Guest' });
    const people = [host, participant, guest];
    const rooms = people.map((person) => connect(person.grant));
    for (const room of rooms) await room.next('room.state');
    const media = await Promise.all(people.map((person) => JanusBrowser.open(wsUrl(person.grant))));
    for (const connection of media) expect((await connection.request({ janus: 'create' })).janus).toBe('success');
    const [hostRoom, participantRoom, guestRoom] = rooms as [RoomClient, RoomClient, RoomClient];

    // The host and the participant drop (room and media): the guest sees them reconnecting, not gone.
    for (const room of [hostRoom, participantRoom]) drop(room);
    for (const connection of media.slice(0, 2)) connection.socket.terminate();
    for (const person of [host, participant]) {
      await guestRoom.next('participant.reconnecting', (e) => e.participant_id === person.participant_id, 15_000);
    }
    expect(guestRoom.events.some((e) => e.type === 'participant.left')).toBe(false);
    // Then the guest drops too: nobody is connected for longer than the 35-s empty grace.
    drop(guestRoom);
    media[2]!.socket.terminate();
    await pause(40_000);
    expect(await meetingState(instant.id)).toBe('live');

    // An old grant (as after a long stall) is renewed by coming back, not refused.
    await server.built.context.db
      .update(roomParticipants)
      .set({ expiresAt: new Date(Date.now() + 20_000) })
      .where(eq(roomParticipants.id, guest.participant_id));
    const guestBack = connect(guest.grant);
    const state = await guestBack.next('room.state');
    expect(state.self).toMatchObject({ id: guest.participant_id, role: 'participant' });
    expect(state.meeting.state).toBe('live');
    const shown = Object.fromEntries(state.participants.map((p) => [p.id, p.reconnecting ?? false]));
    expect(shown).toEqual({
      [host.participant_id]: true,
      [participant.participant_id]: true,
      [guest.participant_id]: false,
    });
    expect((await participantRow(guest.participant_id)).expiresAt.getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);

    const hostBack = connect(host.grant);
    expect((await hostBack.next('room.state')).self).toMatchObject({ id: host.participant_id, role: 'host' });
    await guestBack.next(
      'participant.back',
      (e) => e.participant.id === host.participant_id && e.participant.role === 'host',
    );
    const participantBack = connect(participant.grant);
    await participantBack.next('room.state');
    await guestBack.next('participant.back', (e) => e.participant.id === participant.participant_id);
    for (const person of people) {
      const connection = await JanusBrowser.open(wsUrl(person.grant));
      expect((await connection.request({ janus: 'create' })).janus).toBe('success');
      connection.socket.close();
    }
    // One attendance each, never closed: to the meeting, they never left.
    const attended = await server.built.context.db
      .select()
      .from(meetingAttendance)
      .where(eq(meetingAttendance.meetingId, instant.id));
    expect(attended.map((row) => row.leftAt)).toEqual([null, null, null]);
    for (const room of [guestBack, hostBack, participantBack]) {
      expect(room.events.some((e) => e.type === 'room.ended' || e.type === 'participant.left')).toBe(false);
    }
  }, 90_000);
});

describe.each(BACKENDS)('the reconnect grace, shortened, on %s', (backend) => {
  const { made, connect, join, meetingState } = useServer(backend, {
    ROOM_EMPTY_GRACE_SECONDS: '1',
    ROOM_RECONNECT_GRACE_SECONDS: '3',
  });

  it('counts someone who never comes back as having left when they dropped, then ends the meeting', async () => {
    const server = made.server!;
    const instant = await insertMeeting(server, { hostId: made.host!.user.id, isSchedule: 0 });
    const host = await join({ meetId: instant.slug, token: made.host!.token });
    const guest = await join({ meetId: instant.slug, display_name: 'Gone Gina' });
    const hostRoom = connect(host.grant);
    const guestRoom = connect(guest.grant);
    expect((await hostRoom.next('room.state')).reconnect_grace_seconds).toBe(3);
    await guestRoom.next('room.state');

    const droppedAt = Date.now();
    drop(guestRoom);
    await hostRoom.next('participant.reconnecting', (e) => e.participant_id === guest.participant_id);
    await hostRoom.next('participant.left', (e) => e.participant_id === guest.participant_id);
    expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(2900);
    const [gina] = await server.built.context.db
      .select()
      .from(meetingAttendance)
      .where(eq(meetingAttendance.displayName, 'Gone Gina'));
    expect(Math.abs(gina!.leftAt!.getTime() - droppedAt)).toBeLessThan(1000);
    expect(await meetingState(instant.id)).toBe('live');

    // The last one drops: past the empty grace the meeting is still there, past the reconnect grace it ends.
    drop(hostRoom);
    await pause(2000);
    expect(await meetingState(instant.id)).toBe('live');
    await expect.poll(() => meetingState(instant.id), { timeout: 10_000 }).toBe('ended');
  });

  it('at the grace’s end kicks the feed of someone who never came back, not of someone who claimed their session back', async () => {
    const server = made.server!;
    const wsUrl = (grant: string) => `${server.baseUrl.replace('http', 'ws')}/janus?grant=${encodeURIComponent(grant)}`;
    const instant = await insertMeeting(server, { hostId: made.host!.user.id, isSchedule: 0 });
    const host = await join({ meetId: instant.slug, token: made.host!.token });
    const gone = await join({ meetId: instant.slug, display_name: 'Gone Gil' });
    const back = await join({ meetId: instant.slug, display_name: 'Back Bea' });
    const hostRoom = connect(host.grant);
    await hostRoom.next('room.state');
    const rooms = [gone, back].map((person) => connect(person.grant));
    for (const room of rooms) await room.next('room.state');
    const media = await Promise.all([gone, back].map((person) => JanusBrowser.open(wsUrl(person.grant))));
    const [, published] = await Promise.all(media.map((connection) => connection.publishCamera()));

    for (const room of rooms) drop(room);
    for (const connection of media) connection.socket.terminate();
    // Bea's page comes back: its room connection at once, then its Janus session claimed back.
    await connect(back.grant).next('room.state');
    const backMedia = await JanusBrowser.open(wsUrl(back.grant));
    expect(await backMedia.request({ janus: 'claim', session_id: published!.session })).toMatchObject({
      janus: 'success',
    });

    await hostRoom.next('participant.left', (e) => e.participant_id === gone.participant_id);
    // Janus itself would keep Gil's session (and feed) for the grace and a minute more.
    await expect
      .poll(async () => (await roomFeeds(server, instant.id)).map((feed) => feed.display), { timeout: 10_000 })
      .toEqual([`${back.participant_id}:camera`]);
    expect((await backMedia.feedsSeenBy(published!.session, published!.handle)).feeds).toEqual([published!.feedId]);
    expect(hostRoom.events.some((e) => e.type === 'participant.left' && e.participant_id === back.participant_id)).toBe(
      false,
    );
    backMedia.socket.close();
  });

  it('someone who left with a goodbye is gone after the empty grace, not the reconnect grace', async () => {
    const server = made.server!;
    const instant = await insertMeeting(server, { hostId: made.host!.user.id, isSchedule: 0 });
    const host = connect((await join({ meetId: instant.slug, token: made.host!.token })).grant);
    await host.next('room.state');
    host.close();
    // Ended before the 3-s reconnect grace would be over.
    await expect.poll(() => meetingState(instant.id), { timeout: 2500 }).toBe('ended');
  });
});
