import type { LiveBroadcast } from '@meetcast/contracts';
import { eq, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { issueGrant } from '../src/rooms/grants.js';
import { issueViewerGrant } from '../src/streaming/viewers/viewer-keys.js';
import { addMeeting } from './meeting-helpers.js';
import { attachRecording, recordedBroadcast, statusOf } from './recording-fixture.js';
import { RoomClient, type JoinAnswer } from './room-helpers.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

/**
 * Every room, broadcast and recording call tried with each kind of grant a person can hold for a
 * private meeting (docs/security.md, "Access to meetings, broadcasts and recordings"). The expected
 * answers follow from GRANT_RULES through each call's rule, never from what the server happens to do.
 */
type GrantKind = 'lobby' | 'denied' | 'guest' | 'removed' | 'composer' | 'viewer';

interface GrantRule {
  /** Admitted to the room (by the host, or the composer by the server): sees what the room sees. */
  isAdmitted: boolean;
  /** Takes part in the room (chat, hands, votes); the composer only watches. */
  takesPart: boolean;
  /** Why the room's connection refuses the grant outright, when it does. */
  refusedAtDoor?: 'denied' | 'removed' | 'unauthorized';
}

/** What each grant is. None is a session (it names no account) and none belongs to a host. */
const GRANT_RULES: Record<GrantKind, GrantRule> = {
  /** Knocked at the private meeting's lobby and waits there. */
  lobby: { isAdmitted: false, takesPart: false },
  /** Knocked, and the host turned them away. */
  denied: { isAdmitted: false, takesPart: false, refusedAtDoor: 'denied' },
  /** A signed-out guest the host let in. */
  guest: { isAdmitted: true, takesPart: true },
  /** A guest the host let in and then removed. */
  removed: { isAdmitted: false, takesPart: false, refusedAtDoor: 'removed' },
  /** The broadcast composer's grant: admitted, watches only. */
  composer: { isAdmitted: true, takesPart: false },
  /** A channel page's viewer grant for this meeting's broadcast: not a room grant at all. */
  viewer: { isAdmitted: false, takesPart: false, refusedAtDoor: 'unauthorized' },
};

/** The calls that need a signed-in account (a grant in `token` is no session), with fields that would pass. */
const ACCOUNT_CALLS = [
  'start-broadcast.php',
  'stop-broadcast.php',
  'change-broadcast-destination.php',
  'set-broadcast-overlay.php',
  'set-broadcast-stage.php',
  'get-broadcast-preview.php',
  'get-broadcast-plan.php',
  'set-broadcast-plan.php',
  'get-recordings.php',
  'get-meeting.php',
] as const;

interface Call {
  name: string;
  /** The rule, in words; `expected` says the same for one grant. */
  rule: string;
  expected: (grant: GrantRule) => string;
  attempt: (grant: string) => Promise<string>;
}

describe('grants against every room, broadcast and recording call', () => {
  let server: TestServer;
  let host: SignedIn;
  let hostRoom: RoomClient;
  const grants = {} as Record<GrantKind, string>;
  let slug = '';
  let meetingName = '';
  let recording = '';
  let broadcastId = 0;
  let otherSlug = '';
  let connectionId = 0;

  beforeAll(async () => {
    [server, host] = await startWithPeople(
      { backend: 'pglite', env: { COMPOSER_WORKER: 'off', RTMP_ALLOW_PRIVATE: '127.0.0.1' } },
      'Matrix Host',
    );
    const meeting = await addMeeting(server, host, { is_private: 1, name: 'Board only' });
    slug = meeting.url_slug;
    meetingName = meeting.name;
    const join = (fields: Record<string, string>) =>
      server.post<JoinAnswer>('join-room.php', { meetId: slug, ...fields }).then((answer) => answer.body.data!);
    hostRoom = new RoomClient(server.baseUrl, (await join({ token: host.token })).grant);
    await hostRoom.next('room.state');

    // Signed out at a private meeting: each waits in its lobby until the host decides.
    const knocking = (name: string) => join({ display_name: name });
    grants.lobby = (await knocking('Lobby Lu')).grant;
    const turnedAway = await knocking('Denied Dee');
    expect(await hostRoom.send({ type: 'host.deny', participant_id: turnedAway.participant_id })).toEqual({ ok: true });
    grants.denied = turnedAway.grant;
    for (const kind of ['guest', 'removed'] as const) {
      const joined = await knocking(`${kind} person`);
      expect(await hostRoom.send({ type: 'host.admit', participant_id: joined.participant_id })).toEqual({ ok: true });
      grants[kind] = joined.grant;
      if (kind === 'removed') {
        expect(await hostRoom.send({ type: 'host.remove', participant_id: joined.participant_id })).toEqual({
          ok: true,
        });
      }
    }
    // As the broadcast session issues it (broadcast-session.ts).
    const composer = await issueGrant(server.built.context.db, {
      ...{ meetingId: meeting.id, userId: null, displayName: 'Meetcast', browserHash: null },
      ...{ role: 'composer', state: 'admitted' },
    });
    grants.composer = composer.token;

    const rtmp = await server.post<{ data: { id: number } }>('add-rtmp-destination.php', {
      ...{ token: host.token, name: 'Matrix RTMP', url: 'rtmp://127.0.0.1:1935/live', stream_key: 'matrix' },
    });
    connectionId = rtmp.body.data!.data.id;
    const started = await server.post<{ data: LiveBroadcast }>('start-broadcast.php', {
      ...{ token: host.token, meetId: slug, record: 1 },
      destinations: JSON.stringify([{ connection_id: connectionId }]),
    });
    broadcastId = started.body.data!.data.id;
    // A viewer grant of this broadcast, as a channel page is given one for a public meeting's.
    grants.viewer = issueViewerGrant(server.built.context.config, broadcastId).grant;
    await server.post('stop-broadcast.php', { token: host.token, meetId: slug });
    recording = (await attachRecording(server, broadcastId)).name;

    const other = await addMeeting(server, host, { is_private: 1 });
    otherSlug = other.url_slug;
    await recordedBroadcast(server, other.id);
    // It starts Janus, seats six people and encodes two files: on a busy machine that outlasts the default.
  }, 180_000);
  afterAll(async () => {
    hostRoom?.close();
    await server?.close();
  });

  const post = <T>(name: string, fields: Record<string, string | number | undefined>) =>
    server.post<T>(name, { meetId: slug, ...fields });

  /** What get-broadcast.php tells: nothing, or which parts of the broadcast. */
  const broadcastSeen = async (fields: Record<string, string>) => {
    const answer = await post<{ data: LiveBroadcast | null }>('get-broadcast.php', fields);
    const seen = answer.body.data?.data;
    if (answer.httpStatus !== 200 || !seen) return `${answer.httpStatus} nothing`;
    const stage = seen.on_stage ? 'shown' : 'hidden';
    return `${answer.httpStatus} state destinations=${seen.destinations.length} recording=${seen.recording ? 'yes' : 'no'} stage=${stage}`;
  };

  /** The room's connection with this grant: refused (and why), or the first event, or a message's answer. */
  const inRoom = async (grant: string, message?: Record<string, unknown>) => {
    const room = new RoomClient(server.baseUrl, grant);
    try {
      const refused = room.refused().then((reason) => `refused ${reason}`);
      const first = Promise.race([room.next('room.state'), room.next('lobby.waiting')]).then((event) => event.type);
      const opened = await Promise.race([refused, first]);
      if (opened.startsWith('refused') || !message) return opened;
      const ack = await room.send(message);
      return ack.ok ? 'ok' : ack.reason;
    } finally {
      room.close();
    }
  };

  /** The HTTP status of a WebSocket upgrade (101 when it opens). */
  const upgradeStatus = (path: string, protocol?: string) =>
    new Promise<string>((resolve) => {
      const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}${path}`, protocol);
      socket.once('open', () => {
        resolve('101');
        socket.close();
      });
      socket.once('unexpected-response', (_request, response) => resolve(String(response.statusCode)));
      socket.once('error', () => resolve('error'));
    });

  // The room sees who is on stage (ADR 045): the composer draws only them, a backstage guest is told so.
  const admittedView = '200 state destinations=0 recording=no stage=shown';
  const CALLS: Call[] = [
    {
      name: 'get-room.php',
      rule: 'a grant names no account: the pre-join screen hides a private meeting from it',
      expected: () => '200 hidden',
      attempt: async (grant) => {
        const answer = await post<{ meeting: { name: string } }>('get-room.php', { token: grant, grant });
        return `${answer.httpStatus} ${answer.body.data?.meeting.name === meetingName ? 'shown' : 'hidden'}`;
      },
    },
    {
      name: 'join-room.php',
      rule: 'a grant names no account: joining with it as the token asks for a name like any guest',
      expected: () => '403',
      attempt: async (grant) => String((await post('join-room.php', { token: grant, grant })).httpStatus),
    },
    {
      name: 'get-broadcast.php with the grant',
      rule: 'the room sees the broadcast (never its destinations or recording); nobody else sees anything',
      expected: (grant) => (grant.isAdmitted ? admittedView : '200 nothing'),
      attempt: (grant) => broadcastSeen({ grant }),
    },
    {
      name: 'get-broadcast.php with the grant as token',
      rule: 'a grant is no session',
      expected: () => '200 nothing',
      attempt: (grant) => broadcastSeen({ token: grant }),
    },
    {
      name: 'get-broadcast.php of another private meeting',
      rule: "a grant is for one meeting's room only",
      expected: () => '200 nothing',
      attempt: (grant) => broadcastSeen({ grant, meetId: otherSlug }),
    },
    {
      name: 'get-broadcast-viewer.php',
      rule: 'a private meeting is never on a channel page, whoever asks',
      expected: () => '404',
      attempt: async (grant) => String((await post('get-broadcast-viewer.php', { grant, token: grant })).httpStatus),
    },
    ...ACCOUNT_CALLS.map((name): Call => ({
      name,
      rule: 'a call for accounts: a grant is no session, in either field',
      expected: () => '401',
      attempt: async (grant) => {
        const answer = await post(name, {
          ...{ token: grant, grant, id: 1, banner: 'taken over', record: 1, participant_id: 'someone', on_stage: 1 },
          destinations: JSON.stringify([{ connection_id: connectionId }]),
          remove_connection_id: connectionId,
        });
        return String(answer.httpStatus);
      },
    })),
    {
      name: 'GET /api/recordings/{name}',
      rule: "a private meeting's recording goes only to its host's and invitees' accounts; a grant is neither",
      expected: () => '404 404',
      attempt: async (grant) => {
        const bare = await statusOf(server, `/api/recordings/${recording}`);
        const withGrant = await statusOf(server, `/api/recordings/${recording}?access=${encodeURIComponent(grant)}`);
        return `${bare} ${withGrant}`;
      },
    },
    {
      name: 'GET /api/live/{id}/{key}/index.m3u8',
      rule: 'a grant is not the live address key (and the broadcast is over)',
      expected: () => '404',
      attempt: async (grant) =>
        String(await statusOf(server, `/api/live/${broadcastId}/${encodeURIComponent(grant)}/index.m3u8`)),
    },
    {
      name: 'room connection',
      rule: 'removed people and non-room grants are refused; the lobby waits; the admitted are in the room',
      expected: (grant) =>
        grant.refusedAtDoor ? `refused ${grant.refusedAtDoor}` : grant.isAdmitted ? 'room.state' : 'lobby.waiting',
      attempt: (grant) => inRoom(grant),
    },
    {
      name: 'room chat.send',
      rule: 'only people taking part in the room talk in it',
      expected: (grant) =>
        grant.refusedAtDoor
          ? `refused ${grant.refusedAtDoor}`
          : !grant.isAdmitted
            ? 'in_lobby'
            : grant.takesPart
              ? 'ok'
              : 'forbidden',
      attempt: (grant) => inRoom(grant, { type: 'chat.send', text: 'hello from the matrix' }),
    },
    ...[
      { type: 'host.lock', locked: true },
      { type: 'host.admit', participant_id: 'someone-waiting' },
      { type: 'host.end' },
    ].map((message): Call => ({
      name: `room ${message.type}`,
      rule: 'host controls are for the host and co-hosts only; no grant here is one',
      expected: (grant) =>
        grant.refusedAtDoor ? `refused ${grant.refusedAtDoor}` : grant.isAdmitted ? 'forbidden' : 'in_lobby',
      attempt: (grant) => inRoom(grant, message),
    })),
    {
      name: 'media connection /janus',
      rule: 'only a grant admitted to the room opens its media connection',
      expected: (grant) => (grant.isAdmitted ? '101' : '401'),
      attempt: (grant) => upgradeStatus(`/janus?grant=${encodeURIComponent(grant)}`, 'janus-protocol'),
    },
    {
      name: "channel player's /janus-watch",
      rule: "only a viewer grant of a running broadcast opens it; this meeting's broadcast is over",
      expected: () => '401',
      attempt: (grant) => upgradeStatus(`/janus-watch?grant=${encodeURIComponent(grant)}`),
    },
  ];

  // About a hundred calls and room connections, one after another.
  it('answers each grant only what its rule allows', { timeout: 180_000 }, async () => {
    const differences: string[] = [];
    for (const call of CALLS) {
      for (const [kind, rule] of Object.entries(GRANT_RULES) as [GrantKind, GrantRule][]) {
        const expected = call.expected(rule);
        const got = await call.attempt(grants[kind]);
        if (got !== expected)
          differences.push(`${call.name} with a ${kind} grant: ${got}, expected ${expected} (${call.rule})`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('leaves the meeting and its broadcast as they were after every refused change', async () => {
    const [meeting] = await server.built.context.db.select().from(meetings).where(eq(meetings.slug, slug));
    expect(meeting).toMatchObject({ isLocked: false, state: 'live' });
    const seen = await post<{ data: LiveBroadcast | null }>('get-broadcast.php', { token: host.token });
    expect(seen.body.data?.data).toMatchObject({ id: broadcastId, state: 'ended', overlay: { banner: null } });
    expect(seen.body.data?.data?.destinations.map((destination) => destination.connection_id)).toEqual([connectionId]);
    expect(seen.body.data?.data?.recording?.url).toMatch(new RegExp(`^/api/recordings/${recording}\\?access=`));
  });
});
