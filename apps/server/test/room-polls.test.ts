import { POLL_LIMITS } from '@meetcast/contracts';
import { eq, meetingPolls, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMeeting, RoomClients } from './room-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

describe.each(BACKENDS)('polls in a meeting room on %s', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  const rooms = new RoomClients(() => server);
  const { enter } = rooms;

  beforeAll(async () => void ([server, host] = await startWithPeople(backend, 'Polling Paula')));
  afterAll(() => rooms.closeWith(server));

  it('a host asks, everyone votes once (changing it while open), results are live and kept', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const paula = await enter({ meetId: meeting.slug, token: host.token });
    const guest = await enter({ meetId: meeting.slug, display_name: 'Voting Vic' });
    expect(guest.state.polls).toEqual([]);

    // Only hosts ask; questions and options are checked.
    const question = { type: 'host.poll-create', question: 'Lunch?', options: ['Pizza', 'Soup'] } as const;
    expect(await guest.client.send(question)).toEqual({ ok: false, reason: 'forbidden' });
    for (const options of [['Only one'], ['Same', 'same'], ['Fine', ' '], Array.from({ length: 11 }, String)]) {
      expect(await paula.client.send({ ...question, options })).toEqual({ ok: false, reason: 'invalid_message' });
    }
    expect(await paula.client.send({ ...question, question: 'x'.repeat(POLL_LIMITS.question + 1) })).toEqual({
      ok: false,
      reason: 'invalid_message',
    });
    expect(await paula.client.send(question)).toEqual({ ok: true });
    const asked = await guest.client.next('poll.updated');
    expect(asked.poll).toMatchObject({
      question: 'Lunch?',
      options: [
        { text: 'Pizza', votes: 0 },
        { text: 'Soup', votes: 0 },
      ],
      closed: false,
      created_by: 'Polling Paula',
      my_choice: null,
    });
    const pollId = asked.poll.id;

    expect(await guest.client.send({ type: 'poll.vote', poll_id: pollId, choice: 5 })).toEqual({
      ok: false,
      reason: 'forbidden',
    });
    expect(await guest.client.send({ type: 'poll.vote', poll_id: pollId + 1000, choice: 0 })).toEqual({
      ok: false,
      reason: 'not_found',
    });
    expect(await guest.client.send({ type: 'poll.vote', poll_id: pollId, choice: 0 })).toEqual({ ok: true });
    await paula.client.next('poll.updated', (e) => e.poll.options[0]?.votes === 1);
    expect(await guest.client.send({ type: 'poll.vote', poll_id: pollId, choice: 1 })).toEqual({ ok: true });
    const changed = await paula.client.next('poll.updated', (e) => e.poll.options[1]?.votes === 1);
    expect(changed.poll.options.map((option) => option.votes)).toEqual([0, 1]);
    expect(await paula.client.send({ type: 'poll.vote', poll_id: pollId, choice: 1 })).toEqual({ ok: true });
    await guest.client.next('poll.updated', (e) => e.poll.options[1]?.votes === 2);

    // Someone joining later sees the poll; the host rejoining sees their own choice.
    const again = await enter({ meetId: meeting.slug, token: host.token });
    expect(again.state.polls).toEqual([
      expect.objectContaining({ id: pollId, my_choice: 1, options: [expect.anything(), { text: 'Soup', votes: 2 }] }),
    ]);

    expect(await guest.client.send({ type: 'host.poll-close', poll_id: pollId })).toEqual({
      ok: false,
      reason: 'forbidden',
    });
    expect(await paula.client.send({ type: 'host.poll-close', poll_id: pollId })).toEqual({ ok: true });
    await guest.client.next('poll.updated', (e) => e.poll.closed);
    expect(await guest.client.send({ type: 'poll.vote', poll_id: pollId, choice: 0 })).toEqual({
      ok: false,
      reason: 'forbidden',
    });

    // Polls belong to their meeting: another meeting's host cannot close this one, and they go with it.
    const other = await insertMeeting(server, { hostId: host.user.id });
    const elsewhere = await enter({ meetId: other.slug, token: host.token });
    expect(await elsewhere.client.send({ type: 'host.poll-close', poll_id: pollId })).toEqual({
      ok: false,
      reason: 'not_found',
    });
    await server.built.context.db.delete(meetings).where(eq(meetings.id, meeting.id));
    expect(await server.built.context.db.select().from(meetingPolls).where(eq(meetingPolls.id, pollId))).toEqual([]);
  });
});
