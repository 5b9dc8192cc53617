import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS } from '@meetcast/testkit/chromium';
import { canMakeNetworks, NetworkLab } from '@meetcast/testkit/netns/network-lab';
import { freePort } from '@meetcast/server/tooling';
import { expect, test } from './fixtures';
import { selfSignedCertificate, startCoturn, type Coturn } from './support/coturn';
import { chromiumIn, forwardFromLink, selectedLocalCandidates } from './support/network-place';
import { startOwnServer, type OwnServer } from './support/own-server';
import { E2E_PORTS } from './support/ports';
import { expectDecodingFrom, expectFramesGrowing, inCall, leave, type Participant } from './support/room';

/** A guest in the room: opens it at `origin`, gives a name, joins. */
async function joinAsGuest(browser: Browser, origin: string, slug: string, name: string): Promise<Participant> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  await page.goto(`${origin}/room/${slug}`);
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  return { context, page };
}

// A participant behind a firewall that lets out nothing but TCP to the web server and to TURN over
// TLS (no UDP, no other TCP port: not Janus' ICE-TCP, not TURN's plain port). The operator runs their
// own coturn with a self-signed certificate, given to the app server as TURN_URL and TURN_SECRET.
test.describe('a participant over TURN over TLS (turns:)', () => {
  test.describe.configure({ timeout: 300_000 });
  test.skip(!canMakeNetworks, 'needs root: the firewalled browser runs in a network namespace (ip netns)');

  test('sees and is seen through coturn’s TLS port, the relay being its only way out', async ({ browser }) => {
    const lab = new NetworkLab();
    const folder = mkdtempSync(join(tmpdir(), 'meetcast-turns-'));
    let coturn: Coturn | undefined;
    let server: OwnServer | undefined;
    let stopForwarding: (() => void) | undefined;
    let firewalled: Browser | undefined;
    try {
      const [appPort, turnPort, tlsPort] = [await freePort(), await freePort(), await freePort()];
      const place = lab.udpBlocked({ onlyTcpPorts: [appPort, tlsPort] });
      const certificate = selfSignedCertificate(folder, place.serverAddress);
      const relayBase = 49_152 + ((E2E_PORTS.app * 7) % 150) * 100;
      const secret = randomBytes(24).toString('hex');
      coturn = await startCoturn({
        folder,
        address: place.serverAddress,
        secret,
        port: turnPort,
        tlsPort,
        relayPorts: [relayBase, relayBase + 99],
        certificate,
      });
      server = await startOwnServer({ TURN_URL: coturn.urls.join(','), TURN_SECRET: secret });
      stopForwarding = await forwardFromLink(place, appPort, server.port);
      const origin = `http://${place.serverAddress}:${appPort}`;
      firewalled = await chromium.launch({
        executablePath: chromiumIn(place.namespace, folder),
        args: [
          ...CHROMIUM_ARGS,
          // The page is not on a loopback address: the camera needs it taken for a secure origin.
          `--unsafely-treat-insecure-origin-as-secure=${origin}`,
          // Trusts the test's self-signed coturn for TURN over TLS by its key, as the README tells.
          `--ignore-certificate-errors-spki-list=${certificate.spki}`,
        ],
      });

      const token = await server.signUp('Tls Host');
      const made = await server.post<{ url_slug: string }>('add-instant-meeting.php', {
        token,
        name: 'Over TLS',
        slug: `tls-${Date.now()}`,
      });
      const slug = made.data!.url_slug;
      const hanna = await joinAsGuest(browser, server.url, slug, 'Hanna Here');
      await inCall(hanna);
      const tess = await joinAsGuest(firewalled, origin, slug, 'Tess Tls');
      await inCall(tess);
      const started = Date.now();
      await expectDecodingFrom(tess.page, 1, 120_000);
      await expectDecodingFrom(hanna.page, 1, 120_000);
      const bothWaysMs = Date.now() - started;
      await expectFramesGrowing(tess.page);
      await expectFramesGrowing(hanna.page);

      // Both of Tess's connections (her camera's and the one bringing Hanna's) are relayed over TLS.
      const pairs = await selectedLocalCandidates(tess.page);
      expect(pairs.map((pair) => pair.connection).sort()).toEqual(['publisher', 'subscriber']);
      for (const pair of pairs) {
        expect(pair).toMatchObject({ candidateType: 'relay', relayProtocol: 'tls' });
      }
      // coturn saw her TLS allocations, made with a credential of the TURN REST API (expiry:name).
      expect(coturn.log()).toMatch(/TLS/);
      console.info(`TURN over TLS only: video both ways ${bothWaysMs} ms after Tess was in the call`);
      await leave(hanna, tess);
    } catch (error) {
      if (server) await test.info().attach('server log', { body: server.logs(), contentType: 'text/plain' });
      if (coturn) await test.info().attach('coturn log', { body: coturn.log(), contentType: 'text/plain' });
      throw error;
    } finally {
      await firewalled?.close();
      stopForwarding?.();
      await server?.stop();
      coturn?.stop();
      lab.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
