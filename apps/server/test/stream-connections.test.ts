import type { StreamConnection } from '@meetcast/contracts';
import { eq, streamConnections, streamOauthStates } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretsBoxFor } from '../src/platform/secrets-box.js';
import { startFakeGoogle, type FakeGoogle } from '@meetcast/testkit/fake-google';
import { followConsent } from '@meetcast/testkit/fake-oauth';
import { startFakeTwitch, type FakeTwitch } from '@meetcast/testkit/fake-twitch';
import { connected, connectionRow, connectPlatform, finishFields, startAndConsent } from './stream-helpers.js';
import { BACKENDS } from './test-database.js';
import { recordAnswers, startTestServer, startWithPeople, type SignedIn, type TestServer } from './test-server.js';

describe.each(BACKENDS)('stream connections on %s', (backend) => {
  let server: TestServer;
  let google: FakeGoogle;
  let twitch: FakeTwitch;
  let ann: SignedIn;
  let bob: SignedIn;
  /** Every answer body of the file, to check that no token or key ever left the server. */
  const answers: string[] = [];

  beforeAll(async () => {
    google = await startFakeGoogle({ channel: { id: 'UCannChannel0001', title: "Ann's Channel" } });
    twitch = await startFakeTwitch({ user: { id: '4242', login: 'ann_streams', display_name: 'Ann_Streams' } });
    [server, ann, bob] = await startWithPeople({ backend, env: { ...google.env, ...twitch.env } }, 'Ann', 'Bob');
    recordAnswers(server, answers);
  });
  afterAll(async () => {
    await server.close();
    await google.close();
    await twitch.close();
  });

  const list = async (who: SignedIn) =>
    (await server.post<{ data: StreamConnection[] }>('get-stream-connections.php', { token: who.token })).body.data
      ?.data ?? [];

  it('connects a YouTube channel through the consent page and keeps its tokens sealed', async () => {
    const start = await server.post<{ url: string }>('start-stream-connection.php', {
      token: ann.token,
      platform: 'youtube',
    });
    expect(start.httpStatus).toBe(200);
    const url = new URL(start.body.data?.url ?? '');
    expect(`${url.origin}${url.pathname}`).toBe(google.env.GOOGLE_AUTH_URL);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: google.client.id,
      redirect_uri: `${server.built.context.config.publicUrl}/connect-stream`,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/youtube.force-ssl',
      access_type: 'offline',
      prompt: 'consent',
    });
    expect(url.searchParams.get('state')).toMatch(/^youtube\./);
    const [stored] = await server.built.context.db.select().from(streamOauthStates);
    expect(stored?.stateHash).not.toBe(url.searchParams.get('state'));

    const redirect = await followConsent(url.toString(), 'allow');
    expect(redirect.pathname).toBe('/connect-stream');
    const finish = await server.post<{ data: StreamConnection }>(
      'finish-stream-connection.php',
      finishFields(ann, 'youtube', redirect),
    );
    expect(finish.httpStatus).toBe(200);
    expect(finish.body.message).toContain("Ann's Channel");
    expect(finish.body.data?.data).toMatchObject({ platform: 'youtube', name: "Ann's Channel", status: 'connected' });

    const row = await connectionRow(server, finish.body.data?.data.id ?? 0);
    expect(row.externalId).toBe('UCannChannel0001');
    const tokens = google.oauth.issuedTokens();
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    const box = secretsBoxFor(server.built.context.config);
    for (const column of [row.accessTokenSealed, row.refreshTokenSealed]) {
      expect(column).toMatch(/^v1\./);
      for (const token of tokens) expect(column).not.toContain(token);
      expect(tokens).toContain(box.open(column ?? ''));
    }
    expect(row.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 50 * 60 * 1000);
    expect((await list(ann)).map((connection) => connection.name)).toContain("Ann's Channel");
  });

  it('connects a Twitch account, and connecting it again updates the same connection', async () => {
    const first = await connected(server, ann, 'twitch');
    expect(first).toMatchObject({ platform: 'twitch', name: 'Ann_Streams', status: 'connected' });
    const row = await connectionRow(server, first.id);
    expect(row.externalId).toBe('4242');
    expect(row.validatedAt).not.toBeNull();

    const again = await connected(server, ann, 'twitch');
    expect(again.id).toBe(first.id);
    expect((await list(ann)).filter((connection) => connection.platform === 'twitch')).toHaveLength(1);
    expect((await connectionRow(server, first.id)).accessTokenSealed).not.toBe(row.accessTokenSealed);
  });

  it('refuses a refused consent, a foreign, reused, forged or expired state, and an expired code', async () => {
    const refused = await connectPlatform(server, ann, 'youtube', 'deny');
    expect(refused.httpStatus).toBe(400);
    expect(refused.body.message).toMatch(/did not allow Meetcast to stream to your YouTube account/);

    const forged = await server.post('finish-stream-connection.php', {
      token: ann.token,
      platform: 'youtube',
      code: 'made-up',
      state: 'youtube.made-up-state',
    });
    expect(forged.httpStatus).toBe(400);
    expect(forged.body.message).toMatch(/does not belong to a connection you started/);

    // Bob cannot finish Ann's flow; Ann still can, once.
    const annRedirect = await startAndConsent(server, ann, 'twitch');
    const stolen = await server.post('finish-stream-connection.php', {
      ...finishFields(ann, 'twitch', annRedirect),
      token: bob.token,
    });
    expect(stolen.httpStatus).toBe(400);
    const fields = finishFields(ann, 'twitch', annRedirect);
    expect((await server.post('finish-stream-connection.php', fields)).httpStatus).toBe(200);
    const reused = await server.post('finish-stream-connection.php', fields);
    expect(reused.httpStatus).toBe(400);
    expect(reused.body.message).toMatch(/does not belong/);

    // A state for one platform does not finish the other.
    const youtubeRedirect = await startAndConsent(server, ann, 'youtube');
    const crossed = await server.post('finish-stream-connection.php', {
      ...finishFields(ann, 'youtube', youtubeRedirect),
      platform: 'twitch',
    });
    expect(crossed.httpStatus).toBe(400);

    const late = await startAndConsent(server, ann, 'youtube');
    await server.built.context.db.update(streamOauthStates).set({ expiresAt: new Date(Date.now() - 1000) });
    const expiredState = await server.post('finish-stream-connection.php', finishFields(ann, 'youtube', late));
    expect(expiredState.httpStatus).toBe(400);
    expect(expiredState.body.message).toMatch(/expired/);

    google.oauth.codeLifetimeSeconds = 0;
    try {
      const expiredCode = await connectPlatform(server, ann, 'youtube');
      expect(expiredCode.httpStatus).toBe(400);
      expect(expiredCode.body.message).toMatch(/YouTube did not accept the authorization code/);
    } finally {
      google.oauth.codeLifetimeSeconds = 60;
    }
  });

  it('refuses a Google account without a YouTube channel and gives its grant back', async () => {
    const channel = google.channel;
    google.channel = null;
    try {
      const grants = google.oauth.activeGrants().length;
      const answer = await connectPlatform(server, bob, 'youtube');
      expect(answer.httpStatus).toBe(400);
      expect(answer.body.message).toMatch(/has no YouTube channel/);
      expect(google.oauth.activeGrants()).toHaveLength(grants);
      expect((await list(bob)).some((connection) => connection.platform === 'youtube')).toBe(false);
    } finally {
      google.channel = channel;
    }
  });

  it('answers a platform outage with a clear 502, and a platform without client with 400', async () => {
    const redirect = await startAndConsent(server, bob, 'youtube');
    google.failNext(1, 503);
    const outage = await server.post('finish-stream-connection.php', finishFields(bob, 'youtube', redirect));
    expect(outage.httpStatus).toBe(502);
    expect(outage.body.message).toMatch(/YouTube is not answering right now/);

    const bare = await startTestServer(backend);
    try {
      const notSetUp = await bare.post('start-stream-connection.php', {
        token: (await bare.signUp()).token,
        platform: 'twitch',
        lng: 'de',
      });
      expect(notSetUp.httpStatus).toBe(400);
      expect(notSetUp.body.message).toContain('Twitch');
      expect(notSetUp.body.message).not.toMatch(/is not set up on this server/);
    } finally {
      await bare.close();
    }
  });

  it('adds RTMP addresses with their key sealed, and refuses bad addresses and keys', async () => {
    const added = await server.post<{ data: StreamConnection }>('add-rtmp-destination.php', {
      token: bob.token,
      name: 'Studio restream',
      url: 'rtmps://live.example.com:443/app/',
      stream_key: 'sk_live_secret_123',
    });
    expect(added.httpStatus).toBe(200);
    expect(added.body.data?.data).toMatchObject({ platform: 'rtmp', name: 'Studio restream', status: 'connected' });
    const row = await connectionRow(server, added.body.data?.data.id ?? 0);
    expect(row.streamKeySealed).not.toContain('sk_live_secret_123');
    expect(secretsBoxFor(server.built.context.config).open(row.streamKeySealed ?? '')).toBe('sk_live_secret_123');

    for (const [url, key] of [
      ['http://live.example.com/app', 'key'],
      ['rtmp://', 'key'],
      ['not a url', 'key'],
      ['rtmp://live.example.com/app', 'has space'],
      ['rtmp://live.example.com/app', 'a/b'],
      ['rtmp://live.example.com/app', ''],
    ] as const) {
      const refused = await server.post('add-rtmp-destination.php', {
        token: bob.token,
        name: 'X',
        url,
        stream_key: key,
      });
      expect(refused.httpStatus, `${url} ${key}`).toBe(400);
    }
    const answersText = answers.join('\n');
    expect(answersText).not.toContain('sk_live_secret_123');
  });

  it('searches Twitch categories, and keeps every connection to its own account', async () => {
    const twitchConnection = (await list(ann)).find((connection) => connection.platform === 'twitch');
    const youtubeConnection = (await list(ann)).find((connection) => connection.platform === 'youtube');
    const found = await server.post<{ data: { id: string; name: string }[] }>('search-twitch-categories.php', {
      token: ann.token,
      connection_id: twitchConnection?.id,
      query: 'chat',
    });
    expect(found.httpStatus).toBe(200);
    expect(found.body.data?.data).toEqual([{ id: '509658', name: 'Just Chatting' }]);

    const notTwitch = await server.post('search-twitch-categories.php', {
      token: ann.token,
      connection_id: youtubeConnection?.id,
      query: 'chat',
    });
    expect(notTwitch.httpStatus).toBe(400);
    for (const [name, fields] of [
      ['search-twitch-categories.php', { connection_id: twitchConnection?.id, query: 'chat' }],
      ['remove-stream-connection.php', { id: twitchConnection?.id }],
    ] as const) {
      const foreign = await server.post(name, { token: bob.token, ...fields });
      expect(foreign.httpStatus, name).toBe(404);
    }
    expect((await list(bob)).some((connection) => connection.id === twitchConnection?.id)).toBe(false);
  });

  it('refreshes a token close to expiry, stores the rotated refresh token, and validates hourly', async () => {
    twitch.oauth.accessTokenLifetimeSeconds = 60;
    try {
      const connection = await connected(server, ann, 'twitch');
      const before = await connectionRow(server, connection.id);
      const refreshes = twitch.oauth.counts.refreshes;
      const search = () =>
        server.post('search-twitch-categories.php', { token: ann.token, connection_id: connection.id, query: 'art' });
      expect((await search()).httpStatus).toBe(200);
      const after = await connectionRow(server, connection.id);
      expect(twitch.oauth.counts.refreshes).toBe(refreshes + 1);
      expect(after.refreshTokenSealed).not.toBe(before.refreshTokenSealed);
      // The second refresh only works with the rotated refresh token.
      expect((await search()).httpStatus).toBe(200);
      expect(twitch.oauth.counts.refreshes).toBe(refreshes + 2);
      expect((await connectionRow(server, connection.id)).status).toBe('connected');

      const validations = twitch.validations;
      await server.built.context.db
        .update(streamConnections)
        .set({ validatedAt: new Date(Date.now() - 2 * 3600 * 1000) })
        .where(eq(streamConnections.id, connection.id));
      expect((await search()).httpStatus).toBe(200);
      expect(twitch.validations).toBe(validations + 1);
    } finally {
      twitch.oauth.accessTokenLifetimeSeconds = 14_400;
    }
  });

  it('marks a connection revoked when the platform withdrew the grant', async () => {
    const connection = await connected(server, bob, 'twitch');
    twitch.revokeAll();
    const search = await server.post('search-twitch-categories.php', {
      token: bob.token,
      connection_id: connection.id,
      query: 'music',
    });
    expect(search.httpStatus).toBe(400);
    expect(search.body.message).toMatch(/access to this Twitch account was withdrawn/);
    expect((await list(bob)).find((entry) => entry.id === connection.id)?.status).toBe('revoked');
  });

  it('revokes the grant at the platform when a connection is removed, even when the platform fails', async () => {
    const connection = await connected(server, bob, 'youtube');
    const revocations = google.oauth.counts.revocations;
    const removed = await server.post('remove-stream-connection.php', { token: bob.token, id: connection.id });
    expect(removed.httpStatus).toBe(200);
    expect(removed.body.message).toContain("Ann's Channel");
    expect(google.oauth.counts.revocations).toBe(revocations + 1);
    expect((await list(bob)).some((entry) => entry.id === connection.id)).toBe(false);

    const second = await connected(server, bob, 'youtube');
    google.failNext(1, 500);
    expect((await server.post('remove-stream-connection.php', { token: bob.token, id: second.id })).httpStatus).toBe(
      200,
    );
    expect((await list(bob)).some((entry) => entry.id === second.id)).toBe(false);
    expect((await server.post('remove-stream-connection.php', { token: bob.token, id: second.id })).httpStatus).toBe(
      404,
    );
  });

  it('never answered a platform token', () => {
    const text = answers.join('\n');
    for (const token of [...google.oauth.issuedTokens(), ...twitch.oauth.issuedTokens()]) {
      expect(text).not.toContain(token);
    }
  });
});
