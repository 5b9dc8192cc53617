import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMeeting, RoomClients, type RoomClient } from './room-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

describe.each(BACKENDS)('raised hands in a meeting room on %s', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  const rooms = new RoomClients(() => server);
  const { enter } = rooms;

  beforeAll(async () => void ([server, host] = await startWithPeople(backend, 'Handy Hosting')));
  afterAll(() => rooms.closeWith(server));

  it('keeps when each hand went up, and only a host or co-host lowers someone else’s', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const hosting = await enter({ meetId: meeting.slug, token: host.token });
    const first = await enter({ meetId: meeting.slug, display_name: 'First Fay' });
    const second = await enter({ meetId: meeting.slug, display_name: 'Second Sam' });

    const raisedBy = async (who: { client: RoomClient; id: string }) => {
      expect(await who.client.send({ type: 'hand.set', raised: true })).toEqual({ ok: true });
      const seen = await hosting.client.next(
        'participant.updated',
        (e) => e.participant.id === who.id && e.participant.hand_raised,
      );
      return seen.participant.hand_raised_at!;
    };
    const firstAt = await raisedBy(first);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const secondAt = await raisedBy(second);
    expect(secondAt).toBeGreaterThan(firstAt);
    expect(Math.abs(firstAt - Date.now())).toBeLessThan(5_000);
    // Raised again while up, a hand keeps its place.
    expect(await raisedBy(first)).toBe(firstAt);
    // Someone arriving later sees the same order.
    const lateState = (await enter({ meetId: meeting.slug, display_name: 'Lou' })).state;
    const hands = lateState.participants.filter((p) => p.hand_raised);
    expect(Object.fromEntries(hands.map((p) => [p.id, p.hand_raised_at]))).toEqual({
      [first.id]: firstAt,
      [second.id]: secondAt,
    });

    // A participant cannot lower another's hand; the refusal is the contract's.
    expect(await second.client.send({ type: 'host.lower-hand', participant_id: first.id })).toEqual({
      ok: false,
      reason: 'forbidden',
    });
    expect(await hosting.client.send({ type: 'host.lower-hand', participant_id: 'nobody-here' })).toEqual({
      ok: false,
      reason: 'not_found',
    });
    expect(await hosting.client.send({ type: 'host.lower-hand', participant_id: first.id })).toEqual({ ok: true });
    const lowered = await second.client.next(
      'participant.updated',
      (e) => e.participant.id === first.id && !e.participant.hand_raised,
    );
    expect(lowered.participant.hand_raised_at).toBeNull();
    await first.client.next('moderation', (e) => e.action === 'lower-hand' && e.by === 'Handy Hosting');

    // The server's own view changed, not only the event: a new arrival sees the hand down.
    const view = (await enter({ meetId: meeting.slug, display_name: 'Ola' })).state;
    expect(view.participants.find((p) => p.id === first.id)?.hand_raised).toBe(false);
    expect(view.participants.find((p) => p.id === second.id)?.hand_raised).toBe(true);

    // A co-host may lower hands too.
    expect(await hosting.client.send({ type: 'host.promote', participant_id: first.id })).toEqual({ ok: true });
    await first.client.next(
      'participant.updated',
      (e) => e.participant.id === first.id && e.participant.role === 'cohost',
    );
    expect(await first.client.send({ type: 'host.lower-hand', participant_id: second.id })).toEqual({ ok: true });
    await hosting.client.next(
      'participant.updated',
      (e) => e.participant.id === second.id && !e.participant.hand_raised,
    );
  });
});
