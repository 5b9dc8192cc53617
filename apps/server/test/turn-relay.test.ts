import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RTCPeerConnection } from 'werift';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/env.js';
import { freePort } from '../src/media/managed-janus.js';
import { publicAddressFromUrl } from '../src/media/public-address.js';
import { turnCredential } from '../src/media/turn/turn-credentials.js';
import { insertMeeting, joinAs } from './room-helpers.js';
import { startTestServer, type TestServer } from './test-server.js';

interface IceServer {
  urls: string;
  username?: string;
  credential?: string;
}

/** The candidates a werift peer gathers through this one TURN server alone (relay only, as a browser told so would). */
async function relayCandidates(server: IceServer, waitMs = 8000): Promise<string[]> {
  const peer = new RTCPeerConnection({ iceServers: [server], iceTransportPolicy: 'relay', iceUseIpv6: false });
  try {
    peer.createDataChannel('probe');
    await peer.setLocalDescription(await peer.createOffer());
    await new Promise<void>((resolve) => {
      if (peer.iceGatheringState === 'complete') resolve();
      peer.iceGatheringStateChange.subscribe((state) => state === 'complete' && resolve());
      setTimeout(resolve, waitMs);
    });
    return (peer.localDescription?.sdp ?? '').split('\r\n').filter((line) => line.includes(' typ relay'));
  } finally {
    await peer.close();
  }
}

describe('TURN credentials (the TURN REST API scheme coturn checks)', () => {
  it('name the expiry and the user, signed with HMAC-SHA1 of the shared secret', () => {
    const made = turnCredential('north-wind-secret', 'alice', new Date(1_700_000_000_000));
    // openssl dgst -sha1 -hmac north-wind-secret of "1700086400:alice", base64: an independent computation.
    expect(made).toEqual({ username: '1700086400:alice', credential: 'B4h6iVPKLBEfsWdDRuUeZl3vUbo=' });
    expect(turnCredential('s', 'a:b', new Date(0), 60).username).toBe('60:a_b');
  });

  it('are configured by TURN_URL with TURN_SECRET, never with a fixed password', () => {
    expect(() => loadConfig({ TURN_URL: 'turn:t.example:3478' })).toThrow(/TURN_SECRET/);
    expect(() => loadConfig({ TURN_URL: 'turn:t.example:3478', TURN_USERNAME: 'u', TURN_CREDENTIAL: 'p' })).toThrow(
      /TURN_SECRET/,
    );
    expect(loadConfig({ TURN_URL: 'turn:t.example:3478', TURN_SECRET: 'a-secret-of-16-chars' }).turn).toMatchObject({
      mode: 'external',
      urls: ['turn:t.example:3478'],
    });
    expect(loadConfig({ TURN: 'off', TURN_URL: 'turn:t.example:3478' }).turn).toEqual({ mode: 'off' });
    expect(loadConfig({}).turn).toMatchObject({ mode: 'managed', port: 3478, tls: undefined });
  });
});

describe('the public address Janus announces', () => {
  it('is PUBLIC_IP, or PUBLIC_URL’s host when that is a public address not of this machine', async () => {
    expect(loadConfig({ PUBLIC_IP: '203.0.113.7' }).janus.nat11Mapping).toBe('203.0.113.7');
    expect(loadConfig({ PUBLIC_IP: '203.0.113.7', JANUS_NAT_1_1_MAPPING: '198.51.100.2' }).janus.nat11Mapping).toBe(
      '198.51.100.2',
    );
    expect(() => loadConfig({ PUBLIC_IP: 'my-host' })).toThrow(/PUBLIC_IP/);
    expect(await publicAddressFromUrl('https://203.0.113.9/', [])).toBe('203.0.113.9');
    expect(await publicAddressFromUrl('https://203.0.113.9/', ['203.0.113.9'])).toBeUndefined();
    // A private address is a proxy in front of us, loopback is this machine: no NAT to announce.
    expect(await publicAddressFromUrl('http://10.1.2.3:3000', [])).toBeUndefined();
    expect(await publicAddressFromUrl('http://localhost:3000', [])).toBeUndefined();
  });
});

describe('the managed coturn', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    server = await startTestServer('pglite', {
      TURN: 'on',
      TURN_PORT: String(port),
      TURN_RELAY_PORT_RANGE: '51000-51100',
      PUBLIC_URL: 'http://127.0.0.1:3000',
    });
  }, 60_000);
  afterAll(() => server?.close());

  it('is started for the first join and relays for the credentials that join hands out, over UDP and TCP', async () => {
    const host = await server.signUp({ username: 'Turn Host' });
    const meeting = await insertMeeting(server, { hostId: host.user.id, isSchedule: 0 });
    const joined = await joinAs(server, { meetId: meeting.slug, token: host.token }, {});
    const iceServers = joined.body.data!.media!.ice_servers;
    expect(iceServers.map((entry) => entry.urls)).toEqual([
      `turn:127.0.0.1:${port}?transport=udp`,
      `turn:127.0.0.1:${port}?transport=tcp`,
    ]);
    const participantId = joined.body.data!.participant_id;
    for (const entry of iceServers) {
      expect(entry.username).toMatch(new RegExp(`^\\d+:${participantId}$`));
      expect(Number(entry.username!.split(':')[0]) * 1000).toBeGreaterThan(Date.now() + 3600_000);
    }
    // The configuration and everything coturn writes stay in DATA_DIR, with the secret in no page.
    const dataDir = server.built.context.config.dataDir;
    expect(existsSync(join(dataDir, 'turn', 'turnserver.conf'))).toBe(true);
    const secret = server.built.context.media.turn.managed!.secret;
    expect(readFileSync(join(dataDir, 'turn', 'turnserver.conf'), 'utf8')).toContain(`static-auth-secret=${secret}`);
    expect(JSON.stringify(joined.body)).not.toContain(secret);

    for (const entry of iceServers) {
      const relays = await relayCandidates(entry);
      expect(relays.length, entry.urls).toBeGreaterThan(0);
      expect(relays[0]).toMatch(/ 51\d{3} typ relay/);
    }
  }, 60_000);

  it('refuses a credential that has expired or was not made with its secret', async () => {
    const [udp] = await server.built.context.media.iceServers('someone');
    const secret = server.built.context.media.turn.managed!.secret;
    const expired = turnCredential(secret, 'someone', new Date(Date.now() - 2 * 86_400_000));
    // werift keeps gathering after a refusal: 3 s is ample for coturn on this machine to answer (see the last line).
    expect(await relayCandidates({ urls: udp!.urls, ...expired }, 3000)).toEqual([]);
    const forged = turnCredential('not-the-secret-at-all', 'someone');
    expect(await relayCandidates({ urls: udp!.urls, ...forged }, 3000)).toEqual([]);
    // The same request with a fresh credential works: what failed was the credential.
    expect((await relayCandidates(udp!, 3000)).length).toBeGreaterThan(0);
  }, 60_000);
});
