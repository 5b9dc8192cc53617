import type { LiveBroadcast } from '@meetcast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMeeting } from '../room-helpers.js';
import { BACKENDS } from '../test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from '../test-server.js';

type BroadcastAnswer = { data: LiveBroadcast | null };

/**
 * Scenes (ADR 042): the holding screen a broadcast starts on, changed while it runs through the
 * overlay call; what is stored is what get-broadcast.php answers, and bad input is a clear 400.
 */
describe.each(BACKENDS)('broadcast scenes (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;

  beforeAll(async () => {
    [server, host] = await startWithPeople({ backend, env: { COMPOSER_WORKER: 'off' } }, 'Scene Host');
  });
  afterAll(() => server.close());

  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const overlayOf = async (meetId: string) =>
    (await server.post<BroadcastAnswer>('get-broadcast.php', { token: host.token, meetId })).body.data!.data!.overlay;

  it('starts on the scene the host chose, with its message and countdown, and answers it to anyone', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const countdownTo = nowSeconds() + 300;
    const started = await server.post<BroadcastAnswer>('start-broadcast.php', {
      token: host.token,
      meetId: meeting.slug,
      record: 1,
      scene: 'starting_soon',
      scene_message: '  The keynote begins shortly  ',
      scene_countdown_to: String(countdownTo),
    });
    expect(started.httpStatus).toBe(200);
    const expected = {
      scene: 'starting_soon',
      scene_message: 'The keynote begins shortly',
      scene_countdown_to: countdownTo,
    };
    expect(started.body.data!.data!.overlay).toMatchObject(expected);
    // The composer's page reads it without an account (an open meeting).
    const anonymous = await server.post<BroadcastAnswer>('get-broadcast.php', { meetId: meeting.slug });
    expect(anonymous.body.data!.data!.overlay).toMatchObject(expected);
    await server.post('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
  });

  it('starts on the people when no scene is sent', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const started = await server.post<BroadcastAnswer>('start-broadcast.php', {
      token: host.token,
      meetId: meeting.slug,
      record: 1,
    });
    expect(started.body.data!.data!.overlay).toMatchObject({
      scene: 'live',
      scene_message: null,
      scene_countdown_to: null,
    });
    await server.post('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
  });

  it('refuses a countdown in the past or over a day ahead, an unknown scene and a long message, storing nothing', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const past = await server.post('start-broadcast.php', {
      token: host.token,
      meetId: meeting.slug,
      record: 1,
      scene_countdown_to: nowSeconds() - 60,
    });
    expect(past.httpStatus).toBe(400);
    expect(past.body.message).toBe('The countdown must end in the future.');
    const noBroadcast = await server.post<BroadcastAnswer>('get-broadcast.php', { meetId: meeting.slug });
    expect(noBroadcast.body.data!.data).toBeNull();

    await server.post('start-broadcast.php', { token: host.token, meetId: meeting.slug, record: 1 });
    const tooFar = await server.post('set-broadcast-overlay.php', {
      token: host.token,
      meetId: meeting.slug,
      scene: 'be_right_back',
      scene_countdown_to: nowSeconds() + 25 * 3600,
    });
    expect(tooFar.httpStatus).toBe(400);
    expect(tooFar.body.message).toBe('The countdown can end at most 24 hours from now.');
    const unknown = await server.post('set-broadcast-overlay.php', {
      token: host.token,
      meetId: meeting.slug,
      scene: 'intermission',
    });
    expect(unknown.httpStatus).toBe(400);
    const long = await server.post('set-broadcast-overlay.php', {
      token: host.token,
      meetId: meeting.slug,
      scene_message: 'x'.repeat(201),
    });
    expect(long.httpStatus).toBe(400);
    expect(await overlayOf(meeting.slug)).toMatchObject({
      scene: 'live',
      scene_message: null,
      scene_countdown_to: null,
    });
    await server.post('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
  });

  it('changes the scene while live: a field not sent stays, an empty message and a countdown of 0 clear', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    await server.post('start-broadcast.php', { token: host.token, meetId: meeting.slug, record: 1 });
    const countdownTo = nowSeconds() + 120;
    const away = await server.post<BroadcastAnswer>('set-broadcast-overlay.php', {
      token: host.token,
      meetId: meeting.slug,
      scene: 'be_right_back',
      scene_message: 'Short break',
      scene_countdown_to: countdownTo,
      banner: 'Q&A next',
    });
    expect(away.httpStatus).toBe(200);
    expect(away.body.data!.data!.overlay).toMatchObject({
      scene: 'be_right_back',
      scene_message: 'Short break',
      scene_countdown_to: countdownTo,
      banner: 'Q&A next',
    });
    // The layout alone: the scene and its texts stay.
    await server.post('set-broadcast-overlay.php', { token: host.token, meetId: meeting.slug, layout: 'grid' });
    expect(await overlayOf(meeting.slug)).toMatchObject({
      scene: 'be_right_back',
      scene_message: 'Short break',
      layout: 'grid',
    });
    const back = await server.post<BroadcastAnswer>('set-broadcast-overlay.php', {
      token: host.token,
      meetId: meeting.slug,
      scene: 'live',
      scene_message: '',
      scene_countdown_to: 0,
    });
    expect(back.body.data!.data!.overlay).toMatchObject({
      scene: 'live',
      scene_message: null,
      scene_countdown_to: null,
      banner: 'Q&A next',
    });
    expect(await overlayOf(meeting.slug)).toMatchObject({ scene: 'live', scene_message: null });
    await server.post('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
  });
});
