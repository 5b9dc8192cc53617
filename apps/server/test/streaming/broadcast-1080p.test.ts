import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveBroadcast } from '@meetcast/contracts';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/media/managed-janus.js';
import { waitFor } from '../../src/streaming/composer/child-processes.js';
import { insertMeeting } from '../room-helpers.js';
import { startLayoutPage } from './composer-processes.js';
import { startTestServer, type SignedIn, type TestServer } from '../test-server.js';

type BroadcastAnswer = { data: LiveBroadcast | null };

/**
 * The stand-in layout page's picture: the start half of its 1280×720 CSS pixels green, the other half
 * blue. On a 1080p stage (scale 1.5) green ends at x = 960 of 1920 and blue reaches the right edge;
 * drawn at scale 1 in a 1920 window it would end at 640, with black beyond 1280.
 */
const half = (left: number, colour: string) =>
  `<div style="position:fixed;top:0;left:${left}px;width:640px;height:720px;background:${colour}"></div>`;
const HALVES = { background: '#000', content: `${half(0, '#00c000')}${half(640, '#0000c0')}`, isSilent: true };
const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/** The received stream's picture size, and two rows (4:2:0 has no odd sizes) of its 21st frame, as RGB. */
function receivedPicture(file: string) {
  const probe = spawnSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file],
    { encoding: 'utf8' },
  );
  const [width, height] = probe.stdout.trim().split(',').map(Number);
  // Decoded from the start, never sought into: a seek into a growing FLV can decode as grey.
  const frame = spawnSync(
    'ffmpeg',
    [
      ...['-v', 'error', '-i', file, '-vf', 'select=gte(n\\,20),crop=iw:2:0:ih/2', '-frames:v', '1'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ],
    { maxBuffer: 1 << 20 },
  );
  const pixel = (x: number) => [...frame.stdout.subarray(x * 3, x * 3 + 3)];
  return { width, height, pixel, isDecoded: frame.stdout.length === (width ?? 0) * 3 * 2 };
}

const isGreen = ([red, green, blue]: number[]) => green! > 150 && red! < 60 && blue! < 60;
const isBlue = ([red, green, blue]: number[]) => blue! > 150 && red! < 60 && green! < 60;

/**
 * 1080p30 when the host asks and the machine can afford it (ADR 050), with the real composer
 * (Chromium on Xvfb, the encode) and a real RTMP receiver. COMPOSER_CORES says the machine has 8
 * cores: the capacity rule is what is tested in capacity.test.ts, the 1080p stage here.
 */
describe('a 1080p30 broadcast (real composer)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-1080p-'));
  let layoutPage: Server;
  let server: TestServer;
  let host: SignedIn;
  let receiver: RtmpReceiver;

  beforeAll(async () => {
    layoutPage = await startLayoutPage(HALVES);
    receiver = new RtmpReceiver(await freePort(), 'live/full-hd', join(folder, 'received')).start();
    server = await startTestServer('pglite', {
      COMPOSER_WORKER: 'local',
      COMPOSER_SPARES: '0',
      COMPOSER_CORES: '8',
      COMPOSER_PAGE_URL: `http://127.0.0.1:${(layoutPage.address() as AddressInfo).port}`,
    });
    host = await server.signUp({ username: 'Full HD Host' });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await receiver?.stop();
    layoutPage?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a quality it does not offer', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const answer = await server.post('start-broadcast.php', {
      token: host.token,
      meetId: meeting.slug,
      record: 1,
      quality: '4k60',
    });
    expect(answer.httpStatus).toBe(400);
  });

  it('sends 1920×1080 drawn at 1.5 device pixels per CSS pixel', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const added = await server.post<{ data: { id: number } }>('add-rtmp-destination.php', {
      token: host.token,
      name: 'Own server',
      url: `rtmp://127.0.0.1:${receiver.port}/live`,
      stream_key: 'full-hd',
    });
    const broadcastOf = async () =>
      (await server.post<BroadcastAnswer>('get-broadcast.php', { token: host.token, meetId: meeting.slug })).body.data!
        .data!;
    const started = await server.post<BroadcastAnswer>('start-broadcast.php', {
      token: host.token,
      meetId: meeting.slug,
      destinations: JSON.stringify([{ connection_id: added.body.data!.data.id }]),
      record: 0,
      quality: '1080p30',
    });
    expect(started.httpStatus).toBe(200);
    expect(started.body.data!.data!.quality).toBe('1080p30');
    try {
      await waitFor(async () => (await broadcastOf()).destinations[0]?.state === 'live', 120_000, 'live');
      // The file the first push wrote: a busy machine may step the encode down to 720p30 later, which
      // starts a new push (and file) at the lighter size.
      const file = receiver.file;
      // Two flat colours encode to a few kilobytes a second: wait for the 21st frame, not for bytes.
      await waitFor(() => sizeOf(file) > 0 && receivedPicture(file).isDecoded, 60_000, 'frames received');
      const picture = receivedPicture(file);
      expect([picture.width, picture.height]).toEqual([1920, 1080]);
      expect(isGreen(picture.pixel(930))).toBe(true);
      expect(isBlue(picture.pixel(990))).toBe(true);
      expect(isBlue(picture.pixel(1900))).toBe(true);
    } finally {
      await server.post('stop-broadcast.php', { token: host.token, meetId: meeting.slug });
      await waitFor(async () => (await broadcastOf()).state === 'ended', 30_000, 'ended');
    }
  }, 300_000);
});
