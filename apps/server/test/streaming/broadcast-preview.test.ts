import WebSocket from 'ws';
import { WATCH_STARTED_BY_PROXY_PARAM, type BroadcastPreview, type Meeting } from '@meetcast/contracts';
import { eq, liveBroadcasts, meetingInvitees } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueViewerGrant, mountpointId } from '../../src/streaming/viewers/viewer-keys.js';
import { JanusBrowser } from '../janus-browser.js';
import { addMeeting, meetingFields } from '../meeting-helpers.js';
import { BACKENDS } from '../test-database.js';
import { startTestServer, type SignedIn, type TestServer } from '../test-server.js';

type PreviewAnswer = { data: BroadcastPreview };

/**
 * The studio's preview (ADR 047): the host and co-hosts get a preview grant for their own running
 * broadcast, private meeting or not, that opens the viewers' mountpoint through the same proxy; no one
 * else gets one, a viewer grant of a private meeting still opens nothing, and the preview closes when
 * the broadcast ends.
 */
describe.each(BACKENDS)('broadcast preview (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  let coHost: SignedIn;
  let stranger: SignedIn;

  beforeAll(async () => {
    server = await startTestServer(backend);
    host = await server.signUp({ username: 'Preview Host' });
    coHost = await server.signUp({ username: 'Preview Co-host' });
    stranger = await server.signUp({ username: 'Preview Stranger' });
  });
  afterAll(() => server.close());

  const watchUrl = (url: string, grant: string) =>
    `${server.baseUrl.replace('http', 'ws')}${url}?grant=${encodeURIComponent(grant)}&${WATCH_STARTED_BY_PROXY_PARAM}=1`;
  const attempt = (url: string, grant: string) =>
    JanusBrowser.open(watchUrl(url, grant)).then(
      (viewer) => viewer,
      (error: unknown) => String(error),
    );
  const previewOf = (who: SignedIn | undefined, meetId: string) =>
    server.post<PreviewAnswer>('get-broadcast-preview.php', { token: who?.token, meetId });

  /**
   * A private meeting of the host with a co-host invited, and a running broadcast with its viewers'
   * mountpoint on Janus, as the composer's viewer feed creates it (no encode needed to be offered it).
   */
  const privateBroadcast = async () => {
    const meeting = await addMeeting(server, host, { is_private: 1 });
    const { context } = server.built;
    await context.db
      .insert(meetingInvitees)
      .values({ meetingId: meeting.id, email: coHost.email.toLowerCase(), userId: coHost.user.id, isCoHost: true });
    const [broadcast] = await context.db
      .insert(liveBroadcasts)
      .values({ meetingId: meeting.id, state: 'live', startedAt: new Date() })
      .returning();
    const place = await context.media.streamingFor({ id: meeting.id, name: meeting.name });
    await place.client.createMountpoint({
      id: mountpointId(context.config, broadcast!.id),
      description: meeting.name,
      secret: place.secret,
      pin: place.pin,
      iface: place.iface,
    });
    return { meeting, broadcastId: broadcast!.id };
  };

  it('gives the host and a co-host a preview of a private meeting that opens the mountpoint, and no one else', async () => {
    const { meeting, broadcastId } = await privateBroadcast();
    // The public side knows nothing of it, and a viewer grant for it opens nothing.
    expect((await server.post('get-broadcast-viewer.php', { meetId: meeting.slug })).httpStatus).toBe(404);
    const viewerGrant = issueViewerGrant(server.built.context.config, broadcastId).grant;
    expect(await attempt('/janus-watch', viewerGrant)).toBe('Error: HTTP 401');

    for (const who of [host, coHost]) {
      const answer = await previewOf(who, meeting.slug);
      expect(answer.httpStatus).toBe(200);
      const preview = answer.body.data!.data;
      expect(preview.url).toBe('/janus-watch');
      expect(preview.grant).toMatch(new RegExp(`^p${broadcastId}\\.\\d+\\.[0-9a-f]{32}$`));
      expect(preview.expires_at).toBeGreaterThan(Date.now() / 1000);
      expect(Array.isArray(preview.ice_servers)).toBe(true);
      const watching = await attempt(preview.url, preview.grant);
      expect(watching).toBeInstanceOf(JanusBrowser);
      const viewer = watching as JanusBrowser;
      // The proxy opened a session and asked to watch the broadcast's mountpoint: Janus offers its
      // H.264 and Opus streams.
      const offerOf = () => viewer.messages.find((m) => m.transaction === 'proxy-watch' && m.janus !== 'ack');
      await expect.poll(() => offerOf() !== undefined).toBe(true);
      const offer = offerOf() as { jsep?: { type: string; sdp: string } };
      expect(offer.jsep?.type).toBe('offer');
      expect(offer.jsep?.sdp).toMatch(/H264/);
      expect(offer.jsep?.sdp).toMatch(/opus/);
      viewer.socket.close();
    }

    const refused = await previewOf(stranger, meeting.slug);
    expect(refused.httpStatus).toBe(403);
    expect(refused.body.status).toBe('error');
    expect(refused.body.message).toMatch(/host or a co-host/);
    expect((await previewOf(undefined, meeting.slug)).httpStatus).toBe(401);
    expect((await previewOf(host, 'no-such-meeting-anywhere')).httpStatus).toBe(404);
    expect((await server.post('get-broadcast-preview.php', { token: host.token })).httpStatus).toBe(400);
    // A tampered preview grant, or one for another broadcast, opens nothing.
    const grant = (await previewOf(host, meeting.slug)).body.data!.data.grant;
    const tampered = grant.replace(/^p\d+/, `p${broadcastId + 1000}`);
    expect(await attempt('/janus-watch', tampered)).toBe('Error: HTTP 401');
    expect(await attempt('/janus-watch', grant.slice(1))).toBe('Error: HTTP 401');
  });

  it('answers 409 with nothing running, keeps the preview when the meeting changes, and closes it when the broadcast ends', async () => {
    const idle = await addMeeting(server, host);
    const none = await previewOf(host, idle.slug);
    expect(none.httpStatus).toBe(409);
    expect(none.body.status).toBe('error');

    const { meeting, broadcastId } = await privateBroadcast();
    const preview = (await previewOf(host, meeting.slug)).body.data!.data;
    const viewer = (await attempt(preview.url, preview.grant)) as JanusBrowser;
    expect(viewer).toBeInstanceOf(JanusBrowser);
    // An edit of the meeting drops its public audience (viewer-limits.test.ts), never the studio's preview.
    const edited = await server.post<Meeting>('edit-meeting.php', {
      token: host.token,
      id: meeting.id,
      ...meetingFields({
        name: `${meeting.name} (edited)`,
        slug: meeting.slug,
        start_time: meeting.start_time,
        end_time: meeting.end_time,
        is_private: 1,
      }),
    });
    expect(edited.httpStatus).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(viewer.socket.readyState).toBe(WebSocket.OPEN);

    await server.built.context.db
      .update(liveBroadcasts)
      .set({ state: 'ended', endedAt: new Date() })
      .where(eq(liveBroadcasts.id, broadcastId));
    // The regular check of the open connections (every 3 s) closes it; its grant opens nothing more.
    await expect.poll(() => viewer.socket.readyState === WebSocket.CLOSED, { timeout: 8000, interval: 200 }).toBe(true);
    expect(await attempt(preview.url, preview.grant)).toBe('Error: HTTP 401');
    expect((await previewOf(host, meeting.slug)).httpStatus).toBe(409);
  });
});
