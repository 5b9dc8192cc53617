import { chatMessages, eq, meetingAttendance, meetings } from '@meetcast/db';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMeeting, RoomClient, RoomClients } from './room-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

describe.each(BACKENDS)('meeting rooms on %s', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  const rooms = new RoomClients(() => server);
  const { client, join } = rooms;

  beforeAll(async () => {
    [server, host] = await startWithPeople({ backend, env: { ROOM_EMPTY_GRACE_SECONDS: '1' } }, 'Hosting Hanna');
  });
  afterAll(() => rooms.closeWith(server));

  it('answers unknown and ended meetings clearly, in the contract shape', async () => {
    const unknown = await server.post('get-room.php', { meetId: 'no-such-room' });
    expect(unknown.httpStatus).toBe(404);
    expect(unknown.body).toEqual({ status: 'error', message: expect.stringContaining('does not exist') });
    const ended = await insertMeeting(server, { hostId: host.user.id, state: 'ended' });
    const answer = await join({ meetId: ended.slug, display_name: 'Guest' });
    expect(answer.httpStatus).toBe(410);
    expect(answer.body.status).toBe('error');
    const room = await server.post<{ meeting: { name: string; is_password: number } }>('get-room.php', {
      meetId: (await insertMeeting(server, { hostId: host.user.id, password: 'sesame' })).slug,
    });
    expect(room.body.data?.meeting.is_password).toBe(1);
    expect(JSON.stringify(room.body)).not.toContain('sesame');
  });

  it('reaches rooms by their slug only, and tells outsiders nothing about a private meeting', async () => {
    const open = await insertMeeting(server, { hostId: host.user.id });
    const byNumber = await server.post('get-room.php', { meetId: String(open.id) });
    expect(byNumber.httpStatus).toBe(404);
    expect((await join({ meetId: String(open.id), display_name: 'Walker' })).httpStatus).toBe(404);

    const secret = await insertMeeting(server, { hostId: host.user.id, isPrivate: 1, name: 'Board: layoffs' });
    type RoomAnswer = { meeting: { name: string; host_name: string; start_time: number } };
    const outsider = await server.post<RoomAnswer>('get-room.php', { meetId: secret.slug });
    expect(outsider.httpStatus).toBe(200);
    expect(outsider.body.data?.meeting).toMatchObject({
      name: 'This meeting needs an invitation.',
      host_name: '',
      start_time: 0,
    });
    expect(JSON.stringify(outsider.body)).not.toContain('layoffs');
    const knocking = await join({ meetId: secret.slug, display_name: 'Knocker' });
    expect(knocking.body.data?.state).toBe('lobby');
    expect(JSON.stringify(knocking.body)).not.toContain('layoffs');
    const owner = await server.post<RoomAnswer>('get-room.php', { meetId: secret.slug, token: host.token });
    expect(owner.body.data?.meeting).toMatchObject({ name: 'Board: layoffs', host_name: 'Hosting Hanna' });
  });

  it('gates password-protected meetings and leaks nothing', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, isPrivate: 1, password: 'open-sesame' });
    const missing = await join({ meetId: meeting.slug, display_name: 'Guest' });
    expect(missing.httpStatus).toBe(403);
    expect(missing.body.message).toMatch(/password/i);
    const wrong = await join({ meetId: meeting.slug, display_name: 'Guest', password: 'open-sesamE' });
    expect(wrong.httpStatus).toBe(403);
    expect(wrong.body.message).toBe('The meeting password is incorrect.');
    expect(JSON.stringify(wrong.body)).not.toContain('open-sesame');
    expect(wrong.body).not.toHaveProperty('data');
    const french = await join({ meetId: meeting.slug, display_name: 'Guest', password: 'x', lng: 'fr' });
    expect(french.body.message).not.toBe(wrong.body.message);
    const right = await join({ meetId: meeting.slug, display_name: 'Guest', password: 'open-sesame' });
    expect(right.httpStatus).toBe(200);
    expect(right.body.data?.grant.length).toBeGreaterThan(20);
    const owner = await join({ meetId: meeting.slug, token: host.token });
    expect(owner.body.data).toMatchObject({ role: 'host', state: 'admitted', display_name: 'Hosting Hanna' });
    expect((await join({ meetId: meeting.slug })).httpStatus).toBe(403);
  });

  it('keeps guests of a private meeting in the lobby until the host admits or denies them', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, isPrivate: 1 });
    const hostJoin = await join({ meetId: meeting.slug, token: host.token });
    const hostClient = client(hostJoin.body.data!.grant);
    await hostClient.next('room.state');

    // Admitted at once, the join answers where to open the media connection; the lobby learns it later.
    expect(hostJoin.body.data?.media).toMatchObject({ path: '/janus', room: expect.any(Number) as number });
    const guest = await join({ meetId: meeting.slug, display_name: 'Lobby Larry' });
    expect(guest.body.data?.state).toBe('lobby');
    expect(guest.body.data?.media).toBeNull();
    const waiting = client(guest.body.data!.grant);
    await waiting.next('lobby.waiting');
    await hostClient.next('lobby.changed', (e) => e.lobby.some((l) => l.display_name === 'Lobby Larry'));
    expect((await waiting.send({ type: 'chat.send', text: 'let me in' })).ok).toBe(false);

    const other = await join({ meetId: meeting.slug, display_name: 'Denied Dora' });
    const denied = client(other.body.data!.grant);
    await denied.next('lobby.waiting');
    expect(await hostClient.send({ type: 'host.deny', participant_id: other.body.data!.participant_id })).toEqual({
      ok: true,
    });
    await denied.next('lobby.denied');
    expect(await client(other.body.data!.grant).refused()).toBe('denied');

    expect(await hostClient.send({ type: 'host.admit', participant_id: guest.body.data!.participant_id })).toEqual({
      ok: true,
    });
    await waiting.next('lobby.admitted');
    waiting.close();
    const inside = client(guest.body.data!.grant);
    const state = await inside.next('room.state');
    expect(state.participants.map((p) => p.display_name).sort()).toEqual(['Hosting Hanna', 'Lobby Larry']);
    expect(state.media).toEqual(hostJoin.body.data?.media);
    await hostClient.next('participant.joined', (e) => e.participant.display_name === 'Lobby Larry');
  });

  it('tears the live room down when an administrator ends the meeting', async () => {
    // The first account of the installation (the host here) is its administrator.
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const guestJoin = (await join({ meetId: meeting.slug, display_name: 'Guest Gil' })).body.data!;
    const guest = client(guestJoin.grant);
    await guest.next('room.state');
    const [placed] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    expect(placed?.janusRoomId).toBeGreaterThan(0);
    const disconnected = new Promise<string>((resolve) => guest.socket.once('disconnect', (reason) => resolve(reason)));

    const ended = await server.post('admin-end-meeting.php', { token: host.token, id: meeting.id });
    expect(ended.httpStatus).toBe(200);
    await guest.next('room.ended');
    expect(await disconnected).toBe('io server disconnect');
    const [after] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    expect(after).toMatchObject({ state: 'ended', janusRoomId: null, janusServer: null });
    expect(await client(guestJoin.grant).refused()).toBeTruthy();
  });

  it('lets only hosts use host controls; removed people cannot come back with their grant', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const hostClient = client((await join({ meetId: meeting.slug, token: host.token })).body.data!.grant);
    await hostClient.next('room.state');
    const bob = await server.signUp({ username: 'Bob Builder' });
    const bobJoin = (await join({ meetId: meeting.slug, token: bob.token })).body.data!;
    const bobClient = client(bobJoin.grant);
    await bobClient.next('room.state');
    const carol = (await join({ meetId: meeting.slug, display_name: 'Carol' })).body.data!;
    const carolClient = client(carol.grant);
    await carolClient.next('room.state');

    expect(await bobClient.send({ type: 'host.mute-all' })).toEqual({ ok: false, reason: 'forbidden' });
    expect(await bobClient.send({ type: 'host.remove', participant_id: carol.participant_id })).toEqual({
      ok: false,
      reason: 'forbidden',
    });
    expect(await bobClient.send({ type: 'host.nuke' })).toEqual({ ok: false, reason: 'invalid_message' });

    expect(await hostClient.send({ type: 'host.mute-all' })).toEqual({ ok: true });
    await bobClient.next('moderation', (e) => e.action === 'mute');
    await carolClient.next('moderation', (e) => e.action === 'mute' && e.by === 'Hosting Hanna');
    expect(hostClient.events.some((e) => e.type === 'moderation')).toBe(false);

    expect(await hostClient.send({ type: 'host.stop-video', participant_id: carol.participant_id })).toEqual({
      ok: true,
    });
    await carolClient.next('moderation', (e) => e.action === 'stop-video');

    expect(await hostClient.send({ type: 'host.lock', locked: true })).toEqual({ ok: true });
    await bobClient.next('room.locked', (e) => e.locked);
    const late = await join({ meetId: meeting.slug, display_name: 'Late Lou' });
    expect(late.httpStatus).toBe(403);
    expect(late.body.message).toMatch(/locked/);
    await hostClient.send({ type: 'host.lock', locked: false });

    expect(await hostClient.send({ type: 'host.remove', participant_id: bobJoin.participant_id })).toEqual({
      ok: true,
    });
    await bobClient.next('removed');
    await hostClient.next('participant.left', (e) => e.participant_id === bobJoin.participant_id);
    expect(await client(bobJoin.grant).refused()).toBe('removed');
    // Coming back, Bob waits in the lobby even of this public meeting: only the host lets him in.
    const again = await join({ meetId: meeting.slug, token: bob.token });
    expect(again.body.data?.state).toBe('lobby');

    expect(await hostClient.send({ type: 'host.promote', participant_id: carol.participant_id })).toEqual({ ok: true });
    await carolClient.next(
      'participant.updated',
      (e) => e.participant.id === carol.participant_id && e.participant.role === 'cohost',
    );
    expect(await carolClient.send({ type: 'host.mute', participant_id: hostJoin(hostClient) })).toEqual({ ok: true });
  });

  it('delivers chat to everyone, keeps it, and records attendance', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const a = (await join({ meetId: meeting.slug, token: host.token })).body.data!;
    const aClient = client(a.grant);
    await aClient.next('room.state');
    const b = (await join({ meetId: meeting.slug, display_name: 'Dee' })).body.data!;
    const bClient = client(b.grant);
    await bClient.next('room.state');
    expect(await bClient.send({ type: 'chat.send', text: '<b>hi</b> see https://example.com' })).toEqual({ ok: true });
    const got = await aClient.next('chat.message');
    expect(got.message).toMatchObject({
      display_name: 'Dee',
      text: '<b>hi</b> see https://example.com',
      participant_id: b.participant_id,
    });
    expect(await bClient.send({ type: 'chat.send', text: '   ' })).toEqual({ ok: false, reason: 'invalid_message' });
    expect(await bClient.send({ type: 'reaction.send', emoji: '🎉' })).toEqual({ ok: true });
    await aClient.next('reaction', (e) => e.emoji === '🎉');
    expect(await bClient.send({ type: 'hand.set', raised: true })).toEqual({ ok: true });
    await aClient.next('participant.updated', (e) => e.participant.hand_raised);

    const stored = await server.built.context.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.meetingId, meeting.id));
    expect(stored.map((m) => m.body)).toEqual(['<b>hi</b> see https://example.com']);
    const later = client((await join({ meetId: meeting.slug, display_name: 'Eve' })).body.data!.grant);
    expect((await later.next('room.state')).chat.map((m) => m.text)).toEqual(['<b>hi</b> see https://example.com']);

    expect(await bClient.send({ type: 'room.leave' })).toEqual({ ok: true });
    await aClient.next('participant.left', (e) => e.participant_id === b.participant_id);
    const rows = await server.built.context.db
      .select()
      .from(meetingAttendance)
      .where(eq(meetingAttendance.meetingId, meeting.id));
    expect(rows.map((r) => r.displayName).sort()).toEqual(['Dee', 'Eve', 'Hosting Hanna']);
    const dee = rows.find((r) => r.displayName === 'Dee');
    expect(dee?.leftAt).toBeInstanceOf(Date);
    expect(rows.find((r) => r.displayName === 'Eve')?.leftAt).toBeNull();
    const [live] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    expect(live?.state).toBe('live');
    expect(live?.janusServer).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(live?.janusRoomId).toBeGreaterThan(0);
  });

  it('ends an instant meeting once everyone has left, and a host can end one for all', async () => {
    const instant = await insertMeeting(server, { hostId: host.user.id, isSchedule: 0 });
    const only = client((await join({ meetId: instant.slug, token: host.token })).body.data!.grant);
    await only.next('room.state');
    only.close();
    // Ended, yet its link stays usable for the host (room-restart.test.ts).
    await expect
      .poll(
        async () =>
          (await server.post<{ meeting: { state: string } }>('get-room.php', { meetId: instant.slug })).body.data
            ?.meeting.state,
        { timeout: 10_000 },
      )
      .toBe('ended');
    const attended = await server.built.context.db
      .select()
      .from(meetingAttendance)
      .where(eq(meetingAttendance.meetingId, instant.id));
    expect(attended[0]?.leftAt).toBeInstanceOf(Date);

    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const hostClient = client((await join({ meetId: meeting.slug, token: host.token })).body.data!.grant);
    await hostClient.next('room.state');
    const guest = (await join({ meetId: meeting.slug, display_name: 'Fay' })).body.data!;
    const guestClient = client(guest.grant);
    await guestClient.next('room.state');
    expect(await hostClient.send({ type: 'host.end' })).toEqual({ ok: true });
    await guestClient.next('room.ended');
    expect((await server.post('get-room.php', { meetId: meeting.slug })).httpStatus).toBe(410);
    expect(await client(guest.grant).refused()).toBe('meeting_ended');
  });

  it('joins meetings made through the meetings API (instant meeting with its password)', async () => {
    const slug = `instant-${Date.now().toString(36)}`;
    const made = await server.post<{ url_slug: string; password?: string }>('add-instant-meeting.php', {
      token: host.token,
      name: 'Quick sync',
      slug,
    });
    expect(made.httpStatus).toBe(200);
    const urlSlug = made.body.data!.url_slug;
    const password = made.body.data!.password;
    const guest = await join({ meetId: urlSlug, display_name: 'Ivy', password });
    expect(guest.httpStatus).toBe(200);
    if (password)
      expect((await join({ meetId: urlSlug, display_name: 'Ivy', password: `${password}x` })).httpStatus).toBe(403);
    const owner = await join({ meetId: urlSlug, token: host.token });
    expect(owner.body.data?.role).toBe('host');
  });

  it('refuses bad room connections with named reasons', async () => {
    expect(await new RoomClient(server.baseUrl, 'x'.repeat(40)).refused()).toBe('unauthorized');
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const grant = (await join({ meetId: meeting.slug, display_name: 'Gus' })).body.data!.grant;
    const wrongProtocol = new RoomClient(server.baseUrl, grant);
    wrongProtocol.socket.auth = { grant, protocol: 99 };
    wrongProtocol.socket.disconnect().connect();
    expect(await wrongProtocol.refused()).toBe('protocol_mismatch');
    wrongProtocol.close();
  });

  it('never answers 5xx to random payloads', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, password: 'pw' });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('get-room.php', 'join-room.php'),
        fc.record(
          {
            meetId: fc.oneof(fc.string(), fc.constant(meeting.slug), fc.integer().map(String)),
            display_name: fc.string(),
            password: fc.oneof(fc.string(), fc.constant('pw')),
            token: fc.string(),
          },
          { requiredKeys: [] },
        ),
        async (name, fields) => {
          const answer = await server.post(name, fields);
          expect(answer.httpStatus).toBeLessThan(500);
          expect(['success', 'error']).toContain(answer.body.status);
        },
      ),
      { numRuns: 40 },
    );
  });
});

function hostJoin(hostClient: RoomClient): string {
  const state = hostClient.events.find((e) => e.type === 'room.state');
  if (state?.type !== 'room.state') throw new Error('host has no room state');
  return state.self.id;
}
