import type { BrandKit, LiveBroadcast } from '@meetcast/contracts';
import { liveBroadcasts, meetings } from '@meetcast/db';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFile } from './people-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

const png = (width: number, height: number, background: string | object) =>
  sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer();

describe.each(BACKENDS)('brand kits on %s', (backend) => {
  let server: TestServer;
  let ann: SignedIn;
  let bob: SignedIn;
  beforeAll(async () => {
    [server, ann, bob] = await startWithPeople(backend, 'Ann', 'Bob');
    const created = await server.post('create-channel.php', { token: ann.token, name: 'Ann Live', slug: 'ann-live' });
    expect(created.httpStatus).toBe(200);
  });
  afterAll(() => server.close());

  it('belongs to a channel: the defaults until changed, refused without a channel', async () => {
    const kit = await server.post<BrandKit>('get-brand-kit.php', { token: ann.token });
    expect(kit.httpStatus).toBe(200);
    expect(kit.body.data).toEqual({
      accent_color: '#2563eb',
      name_tag_style: 'classic',
      logo_url: null,
      background_url: null,
      overlay_url: null,
      overlays: [],
    });
    const without = await server.post('get-brand-kit.php', { token: bob.token });
    expect(without.httpStatus).toBe(400);
    expect(without.body.message).toBe('Create your channel first: the brand kit belongs to it.');
    expect((await server.post('get-brand-kit.php', {})).httpStatus).toBe(401);
  });

  it('saves a valid colour and style, refuses the rest with a 400', async () => {
    const saved = await server.post<BrandKit>('update-brand-kit.php', {
      token: ann.token,
      accent_color: '#FF5500',
      name_tag_style: 'bold',
    });
    expect(saved.httpStatus).toBe(200);
    expect(saved.body.data).toMatchObject({ accent_color: '#ff5500', name_tag_style: 'bold' });
    for (const fields of [
      { accent_color: 'red' },
      { accent_color: '#ff550' },
      { accent_color: 'url(javascript:x)' },
      { name_tag_style: 'fancy' },
    ]) {
      const refused = await server.post('update-brand-kit.php', { token: ann.token, ...fields });
      expect(refused.httpStatus).toBe(400);
      expect(refused.body.status).toBe('error');
    }
    const kept = await server.post<BrandKit>('get-brand-kit.php', { token: ann.token });
    expect(kept.body.data).toMatchObject({ accent_color: '#ff5500', name_tag_style: 'bold' });
  });

  it('stores uploaded pictures re-encoded at their size, replaces and removes them', async () => {
    const logo = await postFile<BrandKit>(
      server,
      'upload-brand-image.php',
      { token: ann.token, kind: 'logo' },
      { filename: 'logo.png', type: 'image/png', bytes: await png(1200, 300, { r: 255, g: 0, b: 255, alpha: 0.5 }) },
    );
    expect(logo.httpStatus).toBe(200);
    const logoUrl = logo.body.data?.logo_url ?? '';
    expect(logoUrl).toMatch(/^\/uploads\/brand-logos\/[a-f0-9]{32}\.webp$/);
    const served = await fetch(`${server.baseUrl}${logoUrl}`);
    expect(served.status).toBe(200);
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    // Whole (not cropped) within 640×320, its transparency kept.
    expect(meta).toMatchObject({ format: 'webp', width: 640, height: 160, hasAlpha: true });

    const overlay = await postFile<BrandKit>(
      server,
      'upload-brand-image.php',
      { token: ann.token, kind: 'overlay' },
      { filename: 'frame.png', type: 'image/png', bytes: await png(800, 800, '#00ff00') },
    );
    const overlayUrl = overlay.body.data?.overlay_url ?? '';
    const overlayMeta = await sharp(
      Buffer.from(await (await fetch(`${server.baseUrl}${overlayUrl}`)).arrayBuffer()),
    ).metadata();
    expect(overlayMeta).toMatchObject({ width: 1920, height: 1080, hasAlpha: true });

    const fake = await postFile(
      server,
      'upload-brand-image.php',
      { token: ann.token, kind: 'background' },
      { filename: 'bg.png', type: 'image/png', bytes: 'not a picture' },
    );
    expect(fake.httpStatus).toBe(400);
    const wrongKind = await postFile(
      server,
      'upload-brand-image.php',
      { token: ann.token, kind: 'banner' },
      { filename: 'bg.png', type: 'image/png', bytes: await png(10, 10, '#000') },
    );
    expect(wrongKind.httpStatus).toBe(400);

    const replaced = await postFile<BrandKit>(
      server,
      'upload-brand-image.php',
      { token: ann.token, kind: 'logo' },
      { filename: 'logo2.png', type: 'image/png', bytes: await png(100, 100, '#123456') },
    );
    expect(replaced.body.data?.logo_url).not.toBe(logoUrl);
    // The replaced file is deleted, not left behind.
    expect((await fetch(`${server.baseUrl}${logoUrl}`)).status).toBe(404);

    const removed = await server.post<BrandKit>('remove-brand-image.php', { token: ann.token, kind: 'overlay' });
    expect(removed.body.data?.overlay_url).toBeNull();
    expect((await fetch(`${server.baseUrl}${overlayUrl}`)).status).toBe(404);
  });

  it("is worn by the host's broadcasts, and only the host's", async () => {
    const { db } = server.database.handle;
    const [annShow, bobShow] = await db
      .insert(meetings)
      .values(
        [ann, bob].map((person, index) => ({
          hostId: person.user.id,
          name: `Show ${index}`,
          slug: `brand-show-${index}`,
          isSchedule: 1,
          startTime: new Date(),
          endTime: new Date(Date.now() + 3600_000),
        })),
      )
      .returning();
    await db.insert(liveBroadcasts).values([
      { meetingId: annShow!.id, state: 'ended' },
      { meetingId: bobShow!.id, state: 'ended' },
    ]);
    const annKit = (await server.post<BrandKit>('get-brand-kit.php', { token: ann.token })).body.data;
    const seen = await server.post<{ data: LiveBroadcast | null }>('get-broadcast.php', {
      token: ann.token,
      meetId: annShow!.slug,
    });
    expect(seen.body.data?.data?.overlay.brand).toEqual(annKit);
    const bobs = await server.post<{ data: LiveBroadcast | null }>('get-broadcast.php', {
      token: bob.token,
      meetId: bobShow!.slug,
    });
    expect(bobs.body.data?.data?.overlay.brand).toMatchObject({ accent_color: '#2563eb', logo_url: null });
  });
  it("goes with its owner's account: the pictures' files are deleted", async () => {
    const cleo = await server.signUp({ username: 'Cleo' });
    await server.post('create-channel.php', { token: cleo.token, name: 'Cleo Live', slug: 'cleo-live' });
    const uploaded = await postFile<BrandKit>(
      server,
      'upload-brand-image.php',
      { token: cleo.token, kind: 'background' },
      { filename: 'bg.png', type: 'image/png', bytes: await png(64, 36, '#334455') },
    );
    const background = uploaded.body.data?.background_url ?? '';
    expect((await fetch(`${server.baseUrl}${background}`)).status).toBe(200);
    const gone = await server.post('delete-account.php', { token: cleo.token, password: cleo.password });
    expect(gone.httpStatus).toBe(200);
    expect((await fetch(`${server.baseUrl}${background}`)).status).toBe(404);
  });
});
