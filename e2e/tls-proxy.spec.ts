import { streamingCalls } from '@meetcast/contracts';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { freePort } from '@meetcast/server/tooling';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import { E2E_PORTS } from './support/ports';
import { createMeeting, expectDecodingFrom, inCall } from './support/room';

/** The README's reverse proxy, deploy/Caddyfile, on this machine's ports with Caddy's own authority. */
function caddyConfig(folder: string, httpsPort: number, httpPort: number): string {
  const deployed = readFileSync('deploy/Caddyfile', 'utf8');
  const site = deployed
    .replace(/^meet\.example\.com \{/m, `https://localhost:${httpsPort} {`)
    .replace(/reverse_proxy 127\.0\.0\.1:3000$/m, `reverse_proxy 127.0.0.1:${E2E_PORTS.app}`);
  if (!site.includes(`localhost:${httpsPort} {`) || !site.includes(`:${E2E_PORTS.app}`)) {
    throw new Error('deploy/Caddyfile no longer has a site meet.example.com proxying to 127.0.0.1:3000');
  }
  // `local_certs`: certificates from Caddy's internal authority (`tls internal` for every site), whose
  // root the test browser is then told to trust; nothing is installed into the machine's trust store.
  const global = [
    'admin off',
    'local_certs',
    'skip_install_trust',
    `http_port ${httpPort}`,
    `https_port ${httpsPort}`,
    `storage file_system {\n\t\troot ${join(folder, 'storage')}\n\t}`,
  ];
  return `{\n${global.map((line) => `\t${line}`).join('\n')}\n}\n\n${site}`;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(true)).once('error', () => resolve(false));
    socket.once('connect', () => socket.end());
  });

async function startCaddy(
  folder: string,
  httpsPort: number,
): Promise<{ caddy: ChildProcess; rootCertificate: string }> {
  const config = join(folder, 'Caddyfile');
  writeFileSync(config, caddyConfig(folder, httpsPort, await freePort()));
  let log = '';
  const caddy = spawn('caddy', ['run', '--adapter', 'caddyfile', '--config', config], {
    env: { ...process.env, XDG_DATA_HOME: join(folder, 'data'), XDG_CONFIG_HOME: join(folder, 'config') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  caddy.stderr!.setEncoding('utf8').on('data', (text: string) => (log += text));
  const rootCertificate = join(folder, 'storage/pki/authorities/local/root.crt');
  const leaf = join(folder, 'storage/certificates/local/localhost/localhost.crt');
  const deadline = Date.now() + 30_000;
  while (!(existsSync(leaf) && (await listening(httpsPort)))) {
    if (caddy.exitCode !== null || Date.now() > deadline) {
      throw new Error(`caddy did not serve https://localhost:${httpsPort}: ${log.slice(-1500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { caddy, rootCertificate };
}

/**
 * Debian's Chromium trusts what the user's NSS database trusts ($HOME/.pki/nssdb): a fresh one, under
 * a HOME of the test's own, holds Caddy's root as a trusted authority and nothing else is relaxed.
 */
function launchTrusting(rootCertificate: string, home: string): Promise<Browser> {
  const nssdb = `sql:${join(home, '.pki/nssdb')}`;
  mkdirSync(join(home, '.pki/nssdb'), { recursive: true });
  for (const args of [
    ['-N', '--empty-password'],
    ['-A', '-t', 'C,,', '-n', 'Caddy Local Authority', '-i', rootCertificate],
  ]) {
    const certutil = spawnSync('certutil', ['-d', nssdb, ...args], { encoding: 'utf8' });
    if (certutil.status !== 0) throw new Error(`certutil ${args[0]}: ${certutil.stderr}`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, env: { ...process.env, HOME: home } });
}

test.describe('behind the TLS reverse proxy of deploy/Caddyfile', () => {
  // A call, then a composer going live, through the proxy: minutes on a busy two-core machine.
  test.describe.configure({ timeout: 480_000 });
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-tls-'));
  let caddy: ChildProcess | undefined;
  let browser: Browser | undefined;
  let origin: string;

  test.beforeAll(async () => {
    const httpsPort = await freePort();
    origin = `https://localhost:${httpsPort}`;
    const started = await startCaddy(folder, httpsPort);
    caddy = started.caddy;
    browser = await launchTrusting(started.rootCertificate, join(folder, 'home'));
  });

  test.afterAll(async () => {
    await browser?.close();
    caddy?.kill('SIGTERM');
    rmSync(folder, { recursive: true, force: true });
  });

  test(
    'a browser that trusts the proxy’s authority signs in, joins a call and watches a broadcast over https and wss only',
    { tag: '@composer' },
    async ({ signUp }) => {
      const host = await signUp({ username: 'Tilda Tls' });
      const meeting = await createMeeting(host);
      const addresses: string[] = [];
      const context = async () => {
        const opened = await browser!.newContext({ ignoreHTTPSErrors: false, permissions: ['camera', 'microphone'] });
        opened.on('request', (request) => addresses.push(request.url()));
        opened.on('page', (page) => page.on('websocket', (socket) => addresses.push(socket.url())));
        return opened;
      };
      const contexts: BrowserContext[] = [];
      try {
        const hostContext = await context();
        contexts.push(hostContext);
        const hostPage = await hostContext.newPage();
        await hostPage.goto(`${origin}/login`);
        await hostPage.getByLabel('E-mail address').fill(host.email);
        await hostPage.getByLabel('Password', { exact: true }).fill(host.password);
        await hostPage.getByRole('button', { name: 'Sign in', exact: true }).click();
        await expect(hostPage).toHaveURL(`${origin}/`);

        await hostPage.goto(`${origin}/room/${meeting.slug}`);
        await hostPage.getByRole('button', { name: 'Join meeting' }).click();
        await inCall({ context: hostContext, page: hostPage });

        const guestContext = await context();
        contexts.push(guestContext);
        const guestPage = await guestContext.newPage();
        await guestPage.goto(`${origin}/room/${meeting.slug}`);
        await guestPage.getByLabel('Your name').fill('Guest over TLS');
        await guestPage.getByRole('button', { name: 'Join meeting' }).click();
        await inCall({ context: guestContext, page: guestPage });
        await expectDecodingFrom(guestPage, 1);
        await expectDecodingFrom(hostPage, 1);
        // The guest's part is proven; the composer that goes live next needs the processor more.
        await guestContext.close();

        const started = await apiPost(streamingCalls.startBroadcast, {
          token: host.token,
          meetId: meeting.slug,
          destinations: '[]',
          record: 1,
        });
        expect(started.httpStatus, JSON.stringify(started.body)).toBe(200);
        const viewerContext = await context();
        contexts.push(viewerContext);
        const viewer = await viewerContext.newPage();
        await viewer.goto(`${origin}/channel/${meeting.slug}`);
        await expect(viewer.getByTestId('player-mode')).toHaveAttribute('data-mode', 'webrtc', { timeout: 120_000 });
        const video = viewer.getByTestId('live-video');
        const playedFrom = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
        await expect
          .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 30_000 })
          .toBeGreaterThan(playedFrom + 1);
        await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId: meeting.slug });

        // Every page, script, API call and WebSocket (the call's, the realtime one, the player's)
        // went through the proxy encrypted; media flows to Janus over DTLS-SRTP, outside HTTP.
        expect(addresses.filter((address) => address.startsWith('wss://')).length).toBeGreaterThanOrEqual(3);
        expect(addresses.filter((address) => !/^(?:https|wss|data|blob):/.test(address))).toEqual([]);
      } finally {
        await Promise.all(contexts.map((opened) => opened.close().catch(() => undefined)));
      }
    },
  );
});
