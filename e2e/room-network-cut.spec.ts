import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '@meetcast/testkit/chromium';
import { canMakeNetworks, NetworkLab } from '@meetcast/testkit/netns/network-lab';
import { expect, test } from './fixtures';
import { chromiumIn, forwardFromLink } from './support/network-place';
import { E2E_PORTS } from './support/ports';
import { createMeeting, expectDecodingFrom, inCall, joinRoom, leave } from './support/room';

const CUT_MS = 60_000;
/**
 * Issue 46: video back both ways at most this long after the link returns (printed, not asserted).
 * The first WebSockets after the link's return used to open 3.5-5.4 s late: Chromium's per-page
 * WebSocket throttle, fed by the attempts that failed while offline (ADR 032); the page now makes none
 * offline, and they open 0.5-0.7 s after the link is up. Figures: docs/benchmarks/room-network-cut.md.
 */
const BUDGET_MS = 3000;

/**
 * When video from someone flows again: the page samples its decoded-frame counts every 100 ms and
 * answers with the first moment (epoch ms) a count has grown by 5 within the last second. Sampling in
 * the page keeps the test's round trips (a second or more on a loaded machine) out of the figure.
 */
async function decodingAgainAt(page: Page, timeout: number): Promise<number> {
  return page.evaluate(async (timeoutMs) => {
    type Entry = { participantId: string; framesDecoded: number };
    const room = (window as unknown as { __meetcastRoom?: { inboundVideo(): Promise<Entry[]> } }).__meetcastRoom;
    const history = new Map<string, { at: number; frames: number }[]>();
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const at = Date.now();
      for (const entry of (await room?.inboundVideo()) ?? []) {
        const samples = history.get(entry.participantId) ?? [];
        // A new subscription counts from zero again.
        if (samples.length && entry.framesDecoded < samples.at(-1)!.frames) samples.length = 0;
        samples.push({ at, frames: entry.framesDecoded });
        while (samples.length && samples[0]!.at < at - 1000) samples.shift();
        history.set(entry.participantId, samples);
        if (entry.framesDecoded >= samples[0]!.frames + 5) return at;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no video decoded again within ${timeoutMs} ms`);
  }, timeout);
}

// Root makes network namespaces; elsewhere the test says why it does not run.
test.describe('a call that survives a cut link', () => {
  test.describe.configure({ timeout: 480_000 });
  test.skip(!canMakeNetworks, 'needs root: the cut browser runs in a network namespace (ip netns)');

  test('a browser whose link is down for 60 s comes back into the same call by itself', async ({ browser, signUp }) => {
    const lab = new NetworkLab();
    const folder = mkdtempSync(join(tmpdir(), 'meetcast-cut-'));
    let stopForwarding: (() => void) | undefined;
    try {
      const place = lab.open();
      stopForwarding = await forwardFromLink(place, E2E_PORTS.app);
      const origin = `http://${place.serverAddress}:${E2E_PORTS.app}`;
      const cutBrowser = await chromium.launch({
        executablePath: chromiumIn(place.namespace, folder),
        // The page is not on a loopback address: the camera needs it taken for a secure origin.
        args: [...CHROMIUM_ARGS, `--unsafely-treat-insecure-origin-as-secure=${origin}`],
      });
      try {
        const host = await signUp({ username: 'Wired Hanna' });
        const meeting = await createMeeting(host, { isSchedule: 0 });
        const hanna = await joinRoom(browser, meeting.slug, { account: host });
        await inCall(hanna);
        const rita = await joinRoom(cutBrowser, meeting.slug, { name: 'Rita Remote', origin });
        await inCall(rita);
        await expectDecodingFrom(rita.page, 1, 90_000);
        await expectDecodingFrom(hanna.page, 1, 90_000);
        const roomUrl = rita.page.url();
        const ritaTile = hanna.page.getByRole('figure', { name: /^Rita Remote/ });
        const joinButton = rita.page.getByRole('button', { name: 'Join meeting' });
        // Her camera's connection before the cut: the session claimed back keeps it (ADR 032).
        await rita.page.evaluate(() => {
          (window as { keptConnection?: unknown }).keptConnection = window.__meetcastRoom?.publisherConnection();
        });

        lab.setLink(place, false);
        const cutAt = Date.now();
        if (process.env.ROOM_DEBUG) console.log(`${new Date(cutAt).toISOString().slice(11, 23)} link down`);
        // All the while, Rita keeps her place on Hanna's screen and is never sent back to the pre-join page.
        while (Date.now() - cutAt < CUT_MS) {
          await expect(ritaTile).toBeVisible();
          await expect(joinButton).toHaveCount(0);
          await hanna.page.waitForTimeout(Math.min(5000, Math.max(0, CUT_MS - (Date.now() - cutAt))));
        }
        await expect(ritaTile.getByRole('status')).toHaveText('Reconnecting…');
        lab.setLink(place, true);
        const backAt = Date.now();
        if (process.env.ROOM_DEBUG) console.log(`${new Date(backAt).toISOString().slice(11, 23)} link up`);

        // No click: video flows both ways again, in the same call, on the same page.
        const [seenAgainAt, seesAgainAt] = await Promise.all([
          decodingAgainAt(hanna.page, 150_000),
          decodingAgainAt(rita.page, 150_000),
        ]);
        const [seenAgainMs, seesAgainMs] = [seenAgainAt - backAt, seesAgainAt - backAt];
        // A generous bound (the budget, BUDGET_MS, is read from the printed figures): past it, something hangs.
        expect(Math.max(seenAgainMs, seesAgainMs)).toBeLessThan(20_000);
        await expect(ritaTile.getByRole('status')).toHaveCount(0, { timeout: 30_000 });
        await expect(rita.page.getByRole('status').filter({ hasText: 'Connection lost' })).toHaveCount(0);
        await expect(joinButton).toHaveCount(0);
        await expect(rita.page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
        await expect(hanna.page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
        expect(rita.page.url()).toBe(roomUrl);
        const isSameConnection = await rita.page.evaluate(
          () => (window as { keptConnection?: unknown }).keptConnection === window.__meetcastRoom?.publisherConnection(),
        );
        expect(isSameConnection, 'her Janus session was claimed back, not joined afresh').toBe(true);
        console.info(
          `link down ${CUT_MS / 1000} s, then up: Hanna sees Rita again after ${seenAgainMs} ms, Rita sees Hanna after ${seesAgainMs} ms` +
            ` (issue 46's budget: video back within ${BUDGET_MS} ms of the link's return; ${Math.max(seenAgainMs, seesAgainMs) <= BUDGET_MS ? 'met' : 'missed'})`,
        );
        await leave(hanna, rita);
      } finally {
        await cutBrowser.close();
      }
    } finally {
      stopForwarding?.();
      lab.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
