import type { BrandKit, LiveBroadcast } from '@meetcast/contracts';
import { eq, liveBroadcasts, meetings } from '@meetcast/db';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsDir } from '../src/uploads/images.js';
import { postFile } from './people-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

const png = (background: string) =>
  sharp({ create: { width: 400, height: 300, channels: 4, background } })
    .png()
    .toBuffer();

type BroadcastAnswer = { data: LiveBroadcast | null };

/**
 * The overlay library of a brand kit (issue 45): up to 10 images per channel, each deleted with its
 * file, one of them picked for a running broadcast (or the kit's standard overlay, or none), checked
 * on the server whoever asks.
 */
describe.each(BACKENDS)('brand overlay library on %s', (backend) => {
  let server: TestServer;
  let ann: SignedIn;
  let bob: SignedIn;
  let cat: SignedIn;
  beforeAll(async () => {
    [server, ann, bob, cat] = await startWithPeople(backend, 'Ann', 'Bob', 'Cat');
    for (const [person, slug] of [
      [ann, 'ann-overlays'],
      [cat, 'cat-overlays'],
    ] as const) {
      const created = await server.post('create-channel.php', { token: person.token, name: slug, slug });
      expect(created.httpStatus).toBe(200);
    }
  });
  afterAll(() => server.close());

  const add = async (person: SignedIn, colour: string) =>
    postFile<BrandKit>(
      server,
      'add-brand-overlay.php',
      { token: person.token },
      { filename: 'overlay.png', type: 'image/png', bytes: await png(colour) },
    );
  const remove = (person: SignedIn, id: number | string) =>
    server.post<BrandKit>('remove-brand-overlay.php', { token: person.token, id });
  const overlayFiles = () => readdirSync(join(uploadsDir(server.built.context), 'brand-overlays'));
  const served = async (url: string) => (await fetch(`${server.baseUrl}${url}`)).status;

  it('keeps up to 10 overlays, fitted to 1920×1080; the 11th and bad input are refused with a 4xx', async () => {
    const first = await add(ann, '#ff0000');
    expect(first.httpStatus).toBe(200);
    expect(first.body.message).toBe('The overlay was added.');
    const [overlay] = first.body.data!.overlays!;
    expect(overlay!.url).toMatch(/^\/uploads\/brand-overlays\/[a-f0-9]{32}\.webp$/);
    const meta = await sharp(
      Buffer.from(await (await fetch(`${server.baseUrl}${overlay!.url}`)).arrayBuffer()),
    ).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1920, height: 1080, hasAlpha: true });
    // Fitted whole into a transparent 16:9 frame. The standard overlay (ADR 046) is a separate picture.
    expect(first.body.data!.overlay_url).toBeNull();

    const fake = await postFile(
      server,
      'add-brand-overlay.php',
      { token: ann.token },
      { filename: 'x.png', type: 'image/png', bytes: 'not a picture' },
    );
    expect(fake.httpStatus).toBe(400);
    expect((await server.post('add-brand-overlay.php', { token: ann.token })).httpStatus).toBe(400);
    const withoutChannel = await add(bob, '#00ff00');
    expect(withoutChannel.httpStatus).toBe(400);
    expect(withoutChannel.body.message).toBe('Create your channel first: the brand kit belongs to it.');
    expect((await server.post('add-brand-overlay.php', {})).httpStatus).toBe(401);

    for (let index = 1; index < 10; index++) expect((await add(ann, '#0000ff')).httpStatus).toBe(200);
    const files = overlayFiles().length;
    const eleventh = await add(ann, '#00ff00');
    expect(eleventh.httpStatus).toBe(409);
    expect(eleventh.body.status).toBe('error');
    expect(eleventh.body.message).toBe('The overlay library holds at most 10 images: remove one first.');
    expect(overlayFiles()).toHaveLength(files);
    const kit = await server.post<BrandKit>('get-brand-kit.php', { token: ann.token });
    expect(kit.body.data!.overlays).toHaveLength(10);
    const ids = kit.body.data!.overlays!.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("deletes an overlay with its file; another channel's, an unknown or a malformed id is refused", async () => {
    const kit = (await server.post<BrandKit>('get-brand-kit.php', { token: ann.token })).body.data!;
    const [first, second] = kit.overlays!;
    const cats = (await add(cat, '#00ff00')).body.data!.overlays![0]!;
    for (const [person, id] of [
      [cat, first!.id],
      [ann, cats.id],
      [ann, 2147483647],
    ] as const) {
      const refused = await remove(person, id);
      expect(refused.httpStatus).toBe(404);
      expect(refused.body.message).toBe('There is no such overlay in your brand kit.');
    }
    for (const id of ['abc', '0', '-3', '']) expect((await remove(ann, id)).httpStatus).toBe(400);
    expect(await served(first!.url)).toBe(200);

    const removed = await remove(ann, first!.id);
    expect(removed.httpStatus).toBe(200);
    expect(removed.body.message).toBe('The overlay was removed.');
    expect(removed.body.data!.overlays!.map((item) => item.id)).not.toContain(first!.id);
    expect(removed.body.data!.overlays![0]!.id).toBe(second!.id);
    expect(await served(first!.url)).toBe(404);
    // A place is free again.
    expect((await add(ann, '#ff00ff')).httpStatus).toBe(200);
  });

  it('switches the overlay on a running broadcast, checks the pick on the server, and redraws when it is deleted', async () => {
    const { db } = server.database.handle;
    const standard = await postFile<BrandKit>(
      server,
      'upload-brand-image.php',
      { token: ann.token, kind: 'overlay' },
      { filename: 'standard.png', type: 'image/png', bytes: await png('#ffff00') },
    );
    const standardUrl = standard.body.data!.overlay_url!;
    const [a, b] = standard.body.data!.overlays!;
    const [show] = await db
      .insert(meetings)
      .values({
        hostId: ann.user.id,
        name: 'Overlay show',
        slug: `overlay-show-${backend}`,
        isSchedule: 1,
        startTime: new Date(),
        endTime: new Date(Date.now() + 3600_000),
      })
      .returning();
    const [broadcast] = await db.insert(liveBroadcasts).values({ meetingId: show!.id, state: 'live' }).returning();
    const pick = (person: SignedIn, overlay_image: string | number) =>
      server.post<BroadcastAnswer>('set-broadcast-overlay.php', {
        token: person.token,
        meetId: show!.slug,
        overlay_image,
      });
    const onAir = async () =>
      (await server.post<BroadcastAnswer>('get-broadcast.php', { token: ann.token, meetId: show!.slug })).body.data!
        .data!.overlay;

    // Until the host picks, the kit's standard overlay is on the stream.
    expect(await onAir()).toMatchObject({ overlay_image: 'kit', overlay_image_url: standardUrl });
    const changed: number[] = [];
    server.built.context.events.on('broadcast.changed', (event) => {
      changed.push(event.broadcastId);
    });

    const toA = await pick(ann, a!.id);
    expect(toA.httpStatus).toBe(200);
    expect(toA.body.data!.data!.overlay).toMatchObject({ overlay_image: a!.id, overlay_image_url: a!.url });
    expect(changed).toContain(broadcast!.id);
    expect((await pick(ann, String(b!.id))).body.data!.data!.overlay).toMatchObject({
      overlay_image: b!.id,
      overlay_image_url: b!.url,
    });
    // Setting the banner leaves the picked overlay as it is.
    await server.post('set-broadcast-overlay.php', { token: ann.token, meetId: show!.slug, banner: 'Hello' });
    expect(await onAir()).toMatchObject({ overlay_image: b!.id, banner: 'Hello' });

    const cats = (await server.post<BrandKit>('get-brand-kit.php', { token: cat.token })).body.data!.overlays![0]!;
    for (const [value, status] of [
      [cats.id, 404],
      [2147483647, 404],
      ['bogus', 400],
      ['0', 400],
      ['', 400],
      ['1.5', 400],
    ] as const) {
      const refused = await pick(ann, value);
      expect(refused.httpStatus).toBe(status);
      expect(refused.body.status).toBe('error');
    }
    // Not a manager of the meeting: refused before anything is looked up.
    expect((await pick(bob, a!.id)).httpStatus).toBe(403);
    expect(await onAir()).toMatchObject({ overlay_image: b!.id, overlay_image_url: b!.url });

    expect((await pick(ann, 'none')).body.data!.data!.overlay).toMatchObject({
      overlay_image: 'none',
      overlay_image_url: null,
    });
    expect((await pick(ann, 'kit')).body.data!.data!.overlay.overlay_image_url).toBe(standardUrl);

    // The overlay on air deleted: nothing is drawn, and the composer hears of it at once.
    await pick(ann, a!.id);
    changed.length = 0;
    expect((await remove(ann, a!.id)).httpStatus).toBe(200);
    expect(changed).toContain(broadcast!.id);
    expect(await onAir()).toMatchObject({ overlay_image: 'none', overlay_image_url: null });

    // An ended broadcast takes no pick (409, as every overlay change).
    await db.update(liveBroadcasts).set({ state: 'ended' }).where(eq(liveBroadcasts.id, broadcast!.id));
    expect((await pick(ann, b!.id)).httpStatus).toBe(409);
  });

  it("goes with its owner's account: the library's files are deleted", async () => {
    const cats = (await server.post<BrandKit>('get-brand-kit.php', { token: cat.token })).body.data!.overlays!;
    expect(cats.length).toBeGreaterThan(0);
    expect(await served(cats[0]!.url)).toBe(200);
    const gone = await server.post('delete-account.php', { token: cat.token, password: cat.password });
    expect(gone.httpStatus).toBe(200);
    for (const overlay of cats) expect(await served(overlay.url)).toBe(404);
  });
});
