import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveBroadcasts } from '@meetcast/db';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CallerProcess } from '@meetcast/testkit/netns/caller-process';
import { canMakeNetworks, NetworkLab, type Place } from '@meetcast/testkit/netns/network-lab';
import { freePort } from '../src/media/managed-janus.js';
import { ProcessLedger } from '../src/streaming/composer/child-processes.js';
import { MediaFanOut } from '../src/streaming/composer/media-fan-out.js';
import { ViewerFeed } from '../src/streaming/composer/viewer-feed.js';
import { insertMeeting } from './room-helpers.js';
import { startTestServer, type SignedIn, type TestServer } from './test-server.js';

/** Video both ways: 15 fps make 15+ packets a second; 60 is several seconds of picture. */
const PACKETS = 60;

/** A self-signed certificate for TURN over TLS, valid for `address` (where callers reach coturn). */
function selfSignedCertificate(address: string) {
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-turn-tls-'));
  const cert = join(folder, 'cert.pem');
  const key = join(folder, 'key.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=meetcast-test-turn'],
      ...['-addext', `subjectAltName=IP:${address}`],
    ],
    { stdio: 'pipe' },
  );
  return { cert, key, pem: readFileSync(cert, 'utf8') };
}

/** Whether a TCP connection from `place` to this machine's `port` is accepted. */
function answers(place: Place, port: number): boolean {
  const open = `exec 3<>/dev/tcp/${place.serverAddress}/${port}`;
  try {
    execFileSync('ip', ['netns', 'exec', place.namespace, 'timeout', '5', 'bash', '-c', open], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

// Network namespaces need root: elsewhere these tests say why they do not run.
describe.skipIf(!canMakeNetworks)('participants on hostile networks (network namespaces; needs root)', () => {
  const lab = new NetworkLab();
  const callers: CallerProcess[] = [];
  let server: TestServer;
  let host: SignedIn;
  let places: { udpBlocked: Place; symmetricNat: Place; tlsOnly: Place };
  let port: number;
  let certificate: ReturnType<typeof selfSignedCertificate>;
  let turnPorts: { plain: number; tls: number };

  beforeAll(async () => {
    try {
      // Made before the server starts: its coturn may relay to this machine's addresses, these included.
      turnPorts = { plain: await freePort(), tls: await freePort() };
      const turnPort = turnPorts.plain;
      places = {
        udpBlocked: lab.udpBlocked(),
        symmetricNat: lab.symmetricNat(),
        tlsOnly: lab.udpBlocked({ refusedTcpPorts: [turnPort] }),
      };
      certificate = selfSignedCertificate(places.udpBlocked.serverAddress);
      server = await startTestServer('pglite', {
        HOST: '0.0.0.0',
        TURN: 'on',
        TURN_PORT: String(turnPort),
        TURN_TLS_PORT: String(turnPorts.tls),
        TURN_TLS_CERT: certificate.cert,
        TURN_TLS_KEY: certificate.key,
        TURN_RELAY_PORT_RANGE: '52000-52200',
        // Pages are told to find coturn where the namespaces reach this machine.
        PUBLIC_URL: `http://${places.udpBlocked.serverAddress}:3000`,
      });
      port = Number(new URL(server.baseUrl).port);
      host = await server.signUp({ username: 'Network Host' });
    } catch (error) {
      lab.close();
      throw error;
    }
  }, 90_000);
  // Each test's callers (werift and an ffmpeg encode each) stop with it: the next test's have the cores.
  afterEach(async () => {
    await Promise.all(callers.splice(0).map((caller) => caller.stop()));
  });
  afterAll(async () => {
    lab.close();
    await server?.close();
  });

  const call = (options: Omit<ConstructorParameters<typeof CallerProcess>[0], 'baseUrl'>, place?: Place) => {
    const baseUrl = place ? `http://${place.serverAddress}:${port}` : server.baseUrl;
    const caller = new CallerProcess({ baseUrl, ...options }, place?.namespace);
    callers.push(caller);
    return caller;
  };

  /** The host on this machine's own network, publishing first; then `guest`; both see each other. */
  async function videoBothWays(guest: (slug: string) => CallerProcess) {
    const meeting = await insertMeeting(server, { hostId: host.user.id, isSchedule: 0, state: 'live' });
    const hostSide = call({ slug: meeting.slug, name: 'Host Here', token: host.token, turn: 'none' });
    await hostSide.until((r) => r.event === 'publishing', 30_000, 'the host publishes');
    const far = guest(meeting.slug);
    await far.receivesMore(PACKETS, 45_000, 'the guest receives the host’s video');
    await hostSide.receivesMore(PACKETS, 45_000, 'the host receives the guest’s video');
    return { hostSide, far };
  }

  it('(a) a participant whose UDP is dropped gets video both ways through TURN over TCP', async () => {
    const started = Date.now();
    const { far } = await videoBothWays((slug) => call({ slug, name: 'No Udp', turn: 'tcp' }, places.udpBlocked));
    // Both of its connections go through the relay: no UDP left the namespace.
    expect(far.latest).toMatchObject({ publisher: 'relay', subscriber: 'relay' });
    console.info(`udp blocked, TURN over TCP: video both ways in ${Date.now() - started} ms`);
  }, 120_000);

  it('(b) a participant behind a symmetric NAT gets video both ways through the relay', async () => {
    const started = Date.now();
    // Relay only, as a browser does when no other pair works: the point is that the relay does.
    const { far } = await videoBothWays((slug) =>
      call({ slug, name: 'Behind Nat', turn: 'udp', relayOnly: true }, places.symmetricNat),
    );
    expect(far.latest).toMatchObject({ publisher: 'relay', subscriber: 'relay' });
    console.info(`symmetric NAT, TURN over UDP: video both ways in ${Date.now() - started} ms`);
  }, 120_000);

  it('(e) a participant whose UDP is dropped and whose TCP to the TURN port is refused gets video both ways through TURN over TLS', async () => {
    const started = Date.now();
    // The caller trusts the test's self-signed certificate and checks it (the address it was made for).
    const { far } = await videoBothWays((slug) =>
      call({ slug, name: 'Tls Only', turn: 'tls', turnCa: certificate.pem }, places.tlsOnly),
    );
    const elapsed = Date.now() - started;
    expect(far.latest).toMatchObject({ publisher: 'relay', subscriber: 'relay' });
    // Only TLS could have carried it: from there, coturn's plain port is refused, its TLS port answers.
    expect({ plain: answers(places.tlsOnly, turnPorts.plain), tls: answers(places.tlsOnly, turnPorts.tls) }).toEqual({
      plain: false,
      tls: true,
    });
    console.info(`udp blocked and TURN's TCP port refused, TURN over TLS: video both ways in ${elapsed} ms`);
  }, 120_000);

  it('(d) a channel viewer whose UDP is dropped plays the broadcast over WebRTC through TURN over TCP', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const { context } = server.built;
    const [broadcast] = await context.db
      .insert(liveBroadcasts)
      .values({ meetingId: meeting.id, state: 'live', startedAt: new Date() })
      .returning();
    // The composer's encode stood in for by ffmpeg's test pattern, into the broadcast's viewer feed.
    const fanOut = new MediaFanOut();
    const encode = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=15'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p', '-g', '15'],
        ...['-c:a', 'aac', '-b:a', '64k', '-f', 'mpegts', '-flush_packets', '1', 'pipe:1'],
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    encode.stdout.on('data', (chunk: Buffer) => fanOut.write(chunk));
    const ledger = new ProcessLedger(mkdtempSync(join(tmpdir(), 'meetcast-netns-viewer-')), 'test');
    const feed = new ViewerFeed(context, ledger, fanOut, broadcast!.id, () => undefined);
    try {
      const started = Date.now();
      await feed.start(meeting);
      const viewer = call({ slug: meeting.slug, name: 'Viewer', turn: 'tcp', role: 'viewer' }, places.udpBlocked);
      await viewer.receivesMore(PACKETS, 45_000, 'the viewer receives the broadcast’s video');
      expect(viewer.latest).toMatchObject({ subscriber: 'relay' });
      console.info(`udp blocked viewer, TURN over TCP: video in ${Date.now() - started} ms`);
    } finally {
      encode.kill('SIGKILL');
      await feed.stop();
    }
  }, 120_000);
});
