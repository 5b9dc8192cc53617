/**
 * What Chromium itself takes to use a network that comes back (issue 46, ADR 032): a Chromium in a
 * network namespace of its own, its link (veth) set down for CUT_SECONDS (default 10) and up again;
 * the page, from the moment the link is up, tries every 100 ms a fresh HTTP request to this machine
 * (through the link) and a fresh RTCPeerConnection's ICE gathering, and the bench prints when the
 * page heard `online`, when the first request came back and when the first host candidate was
 * gathered. No Meetcast code is involved: it is the floor under the room's reconnect.
 * `NO_IPV6=1` turns IPv6 off in the namespace (no link-local address appearing after the link's return).
 *
 *   sudo node --import tsx bench/network-return.ts
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '@meetcast/testkit/chromium';
import { NetworkLab } from '@meetcast/testkit/netns/network-lab';
import { chromiumIn } from '../e2e/support/network-place';

const CUT_MS = Number(process.env.CUT_SECONDS ?? 10) * 1000;
const PORT = 18_000 + (process.pid % 1000);

async function main() {
  const lab = new NetworkLab();
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-return-'));
  const server = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    response.end(request.url === '/' ? '<!doctype html><title>return</title>' : 'ok');
  });
  try {
    const place = lab.open();
    if (process.env.NO_IPV6) {
      execFileSync('ip', ['netns', 'exec', place.namespace, 'sysctl', '-qw', 'net.ipv6.conf.all.disable_ipv6=1']);
    }
    await new Promise<void>((resolve) => server.listen(PORT, place.serverAddress, resolve));
    const origin = `http://${place.serverAddress}:${PORT}`;
    const browser = await chromium.launch({
      executablePath: chromiumIn(place.namespace, folder),
      args: [...CHROMIUM_ARGS, `--unsafely-treat-insecure-origin-as-secure=${origin}`],
    });
    try {
      const page = await browser.newPage();
      await page.goto(origin);
      // tsx names the functions it compiles with a helper the page does not have.
      await page.evaluate('globalThis.__name = (value) => value');
      await page.evaluate(() => {
        const w = window as unknown as { onlineAt?: number };
        window.addEventListener('online', () => (w.onlineAt ??= Date.now()));
      });
      lab.setLink(place, false);
      await new Promise((resolve) => setTimeout(resolve, CUT_MS));
      const probing = page.evaluate(async (url) => {
        const w = window as unknown as { onlineAt?: number };
        const startedAt = Date.now();
        let fetchedAt: number | undefined;
        let gatheredAt: number | undefined;
        const gathersHost = async () => {
          const connection = new RTCPeerConnection();
          connection.createDataChannel('probe');
          const found = new Promise<boolean>((resolve) => {
            connection.onicecandidate = (event) => {
              if (event.candidate?.candidate.includes(' host ')) resolve(true);
              if (!event.candidate) resolve(false);
            };
            setTimeout(() => resolve(false), 500);
          });
          await connection.setLocalDescription(await connection.createOffer());
          const isFound = await found;
          connection.close();
          return isFound;
        };
        while (Date.now() - startedAt < 30_000 && (!fetchedAt || !gatheredAt)) {
          const at = Date.now();
          const tries: Promise<unknown>[] = [];
          if (!fetchedAt) {
            tries.push(
              fetch(`${url}/probe?${at}`, { signal: AbortSignal.timeout(1000), cache: 'no-store' })
                .then((response) => {
                  if (response.ok) fetchedAt ??= at;
                })
                .catch(() => undefined),
            );
          }
          if (!gatheredAt) tries.push(gathersHost().then((isFound) => isFound && (gatheredAt ??= at)));
          await Promise.race([Promise.all(tries), new Promise((resolve) => setTimeout(resolve, 100))]);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return { onlineAt: w.onlineAt, fetchedAt, gatheredAt };
      }, origin);
      const upAt = Date.now();
      lab.setLink(place, true);
      const { onlineAt, fetchedAt, gatheredAt } = await probing;
      const after = (at: number | undefined) => (at === undefined ? 'never (30 s)' : `${at - upAt} ms`);
      console.info(
        `link down ${CUT_MS / 1000} s, then up${process.env.NO_IPV6 ? ' (IPv6 off)' : ''}: ` +
          `online event after ${after(onlineAt)}, first HTTP answer to a request begun ${after(fetchedAt)} after, ` +
          `first host candidate of a connection begun ${after(gatheredAt)} after`,
      );
    } finally {
      await browser.close();
    }
  } finally {
    server.close();
    lab.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
