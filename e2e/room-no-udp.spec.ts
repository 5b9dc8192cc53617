import { chromium } from '@playwright/test';
import { expect, test } from './fixtures';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import { createMeeting, expectDecodingFrom, expectFramesGrowing, inCall, joinRoom, leave } from './support/room';

// A browser that may not use UDP at all (a corporate firewall's policy): media reaches Janus over ICE-TCP.
test.describe('a participant without UDP', () => {
  test.describe.configure({ timeout: 240_000 });

  test('sees and is seen over ICE-TCP', async ({ browser, signUp }) => {
    const noUdp = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--webrtc-ip-handling-policy=disable_non_proxied_udp'],
    });
    try {
      const host = await signUp({ username: 'Udp Hanna' });
      const meeting = await createMeeting(host);
      const hanna = await joinRoom(browser, meeting.slug, { account: host });
      await inCall(hanna);
      const tina = await joinRoom(noUdp, meeting.slug, { name: 'Tina Tcp' });
      await inCall(tina);
      await expectDecodingFrom(tina.page, 1, 90_000);
      await expectDecodingFrom(hanna.page, 1, 90_000);
      await expectFramesGrowing(tina.page);
      // Every candidate pair this browser's connection uses is TCP: no UDP was needed.
      const protocols = await tina.page.evaluate(async () => {
        const connection = (
          window as unknown as { __meetcastRoom?: { publisherConnection(): RTCPeerConnection | undefined } }
        ).__meetcastRoom?.publisherConnection();
        const found: string[] = [];
        (await connection?.getStats())?.forEach((report: { type: string; protocol?: string }) => {
          if (report.type === 'local-candidate' && report.protocol) found.push(report.protocol);
        });
        return found;
      });
      expect(protocols.length).toBeGreaterThan(0);
      expect(new Set(protocols)).toEqual(new Set(['tcp']));
      await leave(hanna, tina);
    } finally {
      await noUdp.close();
    }
  });
});
