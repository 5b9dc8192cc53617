import type { LiveBroadcast } from '@meetcast/contracts';
import { issueGrant } from '../../src/rooms/grants.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMeeting, type JoinAnswer } from '../room-helpers.js';
import { BACKENDS } from '../test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from '../test-server.js';

type BroadcastAnswer = { data: LiveBroadcast | null };

/**
 * On stage and backstage (ADR 045): who is on a broadcast when it starts, who joins backstage, the
 * host moving people on and off, who may, who is told, and that the backstage link opens no door.
 */
describe.each(BACKENDS)('broadcast stage (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  let stranger: SignedIn;

  beforeAll(async () => {
    [server, host, stranger] = await startWithPeople(
      { backend, env: { COMPOSER_WORKER: 'off' } },
      'Stage Host',
      'Stage Stranger',
    );
  }, 180_000);
  afterAll(() => server.close());

  const join = async (meetId: string, fields: Record<string, string | number>) => {
    const answer = await server.post<JoinAnswer>('join-room.php', { meetId, ...fields });
    expect(answer.httpStatus).toBe(200);
    return answer.body.data!;
  };
  const setStage = (meetId: string, participantId: string, onStage: 0 | 1, token = host.token) =>
    server.post<BroadcastAnswer>('set-broadcast-stage.php', {
      token,
      meetId,
      participant_id: participantId,
      on_stage: onStage,
    });
  const onStageOf = async (meetId: string, fields: Record<string, string> = { token: host.token }) =>
    (await server.post<BroadcastAnswer>('get-broadcast.php', { meetId, ...fields })).body.data!.data!.on_stage;

  /** A live meeting with its host and a guest in the room, and a guest who came by the backstage link. */
  async function roomOfThree() {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const hostSeat = await join(meeting.slug, { token: host.token });
    const guest = await join(meeting.slug, { display_name: 'Guest Gil' });
    const backstage = await join(meeting.slug, { display_name: 'Backstage Bo', backstage: 1 });
    return { meeting, hostSeat, guest, backstage };
  }

  it('starts with the room on stage except those who came by the backstage link; later arrivals start backstage', async () => {
    const { meeting, hostSeat, guest, backstage } = await roomOfThree();
    const started = await server.post<BroadcastAnswer>('start-broadcast.php', {
      token: host.token,
      meetId: meeting.slug,
      record: 1,
    });
    expect(started.httpStatus).toBe(200);
    expect([...started.body.data!.data!.on_stage!].sort()).toEqual(
      [hostSeat.participant_id, guest.participant_id].sort(),
    );
    expect(started.body.data!.data!.on_stage).not.toContain(backstage.participant_id);

    const late = await join(meeting.slug, { display_name: 'Late Lee' });
    expect(await onStageOf(meeting.slug)).not.toContain(late.participant_id);
    await server.post('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
  });

  it('lets the host add and remove people, says so in the reader’s language, and tells the room', async () => {
    const { meeting, hostSeat, guest, backstage } = await roomOfThree();
    await server.post('start-broadcast.php', { token: host.token, meetId: meeting.slug, record: 1 });

    const added = await setStage(meeting.slug, backstage.participant_id, 1);
    expect(added.httpStatus).toBe(200);
    expect(added.body.message).toBe('They are on the broadcast now.');
    expect(added.body.data!.data!.on_stage).toContain(backstage.participant_id);
    // Added twice is still once.
    const again = await setStage(meeting.slug, backstage.participant_id, 1);
    expect(again.body.data!.data!.on_stage!.filter((id) => id === backstage.participant_id)).toHaveLength(1);

    const removed = await server.post<BroadcastAnswer>('set-broadcast-stage.php', {
      ...{ token: host.token, meetId: meeting.slug, participant_id: guest.participant_id, on_stage: '0', lng: 'fr' },
    });
    expect(removed.body.message).toBe(
      'Cette personne est maintenant en coulisses : dans la réunion, pas dans le direct.',
    );
    expect(removed.body.data!.data!.on_stage).toEqual([hostSeat.participant_id, backstage.participant_id]);

    // The room (a guest's grant) sees the stage; someone outside the room does not.
    expect(await onStageOf(meeting.slug, { grant: guest.grant })).toEqual([
      hostSeat.participant_id,
      backstage.participant_id,
    ]);
    expect(await onStageOf(meeting.slug, {})).toBeNull();
    expect(await onStageOf(meeting.slug, { token: stranger.token })).toBeNull();
    await server.post('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
  });

  it('counts two changes sent at once', async () => {
    const { meeting, guest, backstage } = await roomOfThree();
    await server.post('start-broadcast.php', { token: host.token, meetId: meeting.slug, record: 1 });
    const late = await join(meeting.slug, { display_name: 'Late Lou' });
    const answers = await Promise.all([
      setStage(meeting.slug, backstage.participant_id, 1),
      setStage(meeting.slug, late.participant_id, 1),
      setStage(meeting.slug, guest.participant_id, 0),
    ]);
    expect(answers.map((answer) => answer.httpStatus)).toEqual([200, 200, 200]);
    const stage = await onStageOf(meeting.slug);
    expect(stage).toEqual(expect.arrayContaining([backstage.participant_id, late.participant_id]));
    expect(stage).not.toContain(guest.participant_id);
    await server.post('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
  });

  it('refuses others, unknown people, bad fields and a broadcast that is not running, with a translated 4xx', async () => {
    const { meeting, guest } = await roomOfThree();
    const other = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const elsewhere = await join(other.slug, { display_name: 'Elsewhere El' });

    const notRunning = await setStage(meeting.slug, guest.participant_id, 1);
    expect(notRunning.httpStatus).toBe(409);
    expect(notRunning.body.message).toBe('This meeting is not live right now.');

    await server.post('start-broadcast.php', { token: host.token, meetId: meeting.slug, record: 1 });
    const before = await onStageOf(meeting.slug);
    const byStranger = await setStage(meeting.slug, guest.participant_id, 0, stranger.token);
    expect(byStranger.httpStatus).toBe(403);
    expect(byStranger.body.message).toBe("Only the meeting's host or a co-host can manage its broadcast.");
    const byGuestGrant = await setStage(meeting.slug, guest.participant_id, 0, guest.grant);
    expect(byGuestGrant.httpStatus).toBe(401);

    const composer = await issueGrant(server.built.context.db, {
      ...{ meetingId: meeting.id, userId: null, displayName: 'Meetcast', browserHash: null },
      ...{ role: 'composer', state: 'admitted' },
    });
    for (const nobody of ['no-such-person', elsewhere.participant_id, composer.participant.id]) {
      const answer = await setStage(meeting.slug, nobody, 1);
      expect(answer.httpStatus).toBe(404);
      expect(answer.body.message).toBe("That person is not in this meeting's room.");
    }
    for (const fields of [
      { participant_id: guest.participant_id, on_stage: '2' },
      { participant_id: guest.participant_id, on_stage: 'yes' },
      { participant_id: '', on_stage: '1' },
      { participant_id: 'x'.repeat(41), on_stage: '1' },
      { on_stage: '1' },
    ]) {
      const answer = await server.post('set-broadcast-stage.php', {
        token: host.token,
        meetId: meeting.slug,
        ...fields,
      });
      expect(answer.httpStatus, JSON.stringify(fields)).toBe(400);
      expect(answer.body.status).toBe('error');
    }
    expect(await onStageOf(meeting.slug)).toEqual(before);
    await server.post('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
  });

  it('opens no door: the backstage link still waits in a private meeting’s lobby and still needs the password', async () => {
    const closed = await insertMeeting(server, { hostId: host.user.id, state: 'live', isPrivate: 1 });
    const knocking = await join(closed.slug, { display_name: 'Knocking Kit', backstage: 1 });
    expect(knocking.state).toBe('lobby');
    const locked = await insertMeeting(server, { hostId: host.user.id, state: 'live', password: 'open sesame' });
    const noPassword = await server.post('join-room.php', { meetId: locked.slug, display_name: 'Pat', backstage: 1 });
    expect(noPassword.httpStatus).toBe(403);
    const bad = await server.post('join-room.php', { meetId: locked.slug, display_name: 'Pat', backstage: 7 });
    expect(bad.httpStatus).toBe(400);
  });
});
