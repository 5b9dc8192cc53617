import { eq, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMeeting, RoomClients } from './room-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

type RoomAnswer = { meeting: { state: string; name: string }; is_host: boolean };

// Instant meeting links are the host's reusable room (Meet, Zoom personal rooms); scheduled ones end for good.
describe.each(BACKENDS)('restarting meetings on %s', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  let other: SignedIn;
  const rooms = new RoomClients(() => server);
  const { client, join } = rooms;
  const room = (meetId: string, token?: string) => server.post<RoomAnswer>('get-room.php', { meetId, token });
  const stored = async (id: number) =>
    (await server.built.context.db.select().from(meetings).where(eq(meetings.id, id)))[0];

  // The first account is the installation's administrator: the host can also end meetings as one.
  beforeAll(async () => {
    const env = { ROOM_EMPTY_GRACE_SECONDS: '1' };
    [server, host, other] = await startWithPeople({ backend, env }, 'Reopening Rhea', 'Signed-in Sol');
  });
  afterAll(() => rooms.closeWith(server));

  it('lets the host restart an instant meeting that went empty while others wait for them', async () => {
    const instant = await insertMeeting(server, { hostId: host.user.id, isSchedule: 0 });
    const first = client((await join({ meetId: instant.slug, token: host.token })).body.data!.grant);
    await first.next('room.state');
    first.close();
    await expect.poll(async () => (await stored(instant.id))?.state, { timeout: 10_000 }).toBe('ended');

    // The link still opens: everyone learns the meeting is not running rather than "ended".
    const asGuest = await room(instant.slug);
    expect(asGuest.httpStatus).toBe(200);
    expect(asGuest.body.data).toMatchObject({ meeting: { state: 'ended' }, is_host: false });
    const early = await join({ meetId: instant.slug, display_name: 'Early Eli' });
    expect(early.httpStatus).toBe(409);
    expect(early.body).toEqual({ status: 'error', message: expect.stringContaining('as soon as the host starts') });
    const french = await join({ meetId: instant.slug, display_name: 'Early Eli', lng: 'fr' });
    expect(french.body.message).toContain('organisateur');
    expect((await join({ meetId: instant.slug, token: other.token })).httpStatus).toBe(409);
    expect((await stored(instant.id))?.state).toBe('ended');

    // The owner's arrival starts a fresh session.
    const owner = await join({ meetId: instant.slug, token: host.token });
    expect(owner.httpStatus).toBe(200);
    expect(owner.body.data).toMatchObject({ role: 'host', state: 'admitted' });
    expect(await stored(instant.id)).toMatchObject({ state: 'scheduled', endedAt: null });
    const hostClient = client(owner.body.data!.grant);
    await hostClient.next('room.state');
    expect((await stored(instant.id))?.state).toBe('live');

    const guest = await join({ meetId: instant.slug, display_name: 'Early Eli' });
    expect(guest.body.data?.state).toBe('admitted');
    const guestClient = client(guest.body.data!.grant);
    const inside = await guestClient.next('room.state');
    expect(inside.participants.map((p) => p.display_name).sort()).toEqual(['Early Eli', 'Reopening Rhea']);
  });

  it('lets the host restart it after ending it for all or an administrator ending it, never a scheduled one', async () => {
    const instant = await insertMeeting(server, { hostId: host.user.id, isSchedule: 0 });
    const hostClient = client((await join({ meetId: instant.slug, token: host.token })).body.data!.grant);
    await hostClient.next('room.state');
    const guest = (await join({ meetId: instant.slug, display_name: 'Gale' })).body.data!;
    const guestClient = client(guest.grant);
    await guestClient.next('room.state');
    expect(await hostClient.send({ type: 'host.end' })).toEqual({ ok: true });
    await guestClient.next('room.ended');
    // The grants of the ended session stay dead even once the meeting runs again.
    expect(await client(guest.grant).refused()).toBe('meeting_ended');
    expect((await room(instant.slug)).body.data?.meeting.state).toBe('ended');
    expect((await join({ meetId: instant.slug, display_name: 'Gale' })).httpStatus).toBe(409);

    const again = await join({ meetId: instant.slug, token: host.token });
    expect(again.body.data?.state).toBe('admitted');
    expect(await client(guest.grant).refused()).toBe('meeting_ended');
    await client(again.body.data!.grant).next('room.state');

    expect((await server.post('admin-end-meeting.php', { token: host.token, id: instant.id })).httpStatus).toBe(200);
    expect((await stored(instant.id))?.state).toBe('ended');
    expect((await join({ meetId: instant.slug, token: host.token })).body.data?.state).toBe('admitted');

    // Scheduled meetings that are over, and cancelled instant ones, stay closed even to their host.
    const scheduled = await insertMeeting(server, { hostId: host.user.id, isSchedule: 1 });
    const scheduledHost = client((await join({ meetId: scheduled.slug, token: host.token })).body.data!.grant);
    await scheduledHost.next('room.state');
    expect(await scheduledHost.send({ type: 'host.end' })).toEqual({ ok: true });
    expect((await room(scheduled.slug, host.token)).httpStatus).toBe(410);
    expect((await join({ meetId: scheduled.slug, token: host.token })).httpStatus).toBe(410);

    const cancelled = await insertMeeting(server, { hostId: host.user.id, isSchedule: 0 });
    await server.built.context.db.update(meetings).set({ state: 'cancelled' }).where(eq(meetings.id, cancelled.id));
    expect((await room(cancelled.slug, host.token)).httpStatus).toBe(410);
    expect((await join({ meetId: cancelled.slug, token: host.token })).httpStatus).toBe(410);
  });
});
