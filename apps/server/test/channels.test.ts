import { channels, eq, liveBroadcasts, meetings } from '@meetcast/db';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyChannelFollowers } from '../src/notifications/channel-followers.js';
import { postFile } from './people-helpers.js';
import { BACKENDS } from './test-database.js';
import { startTestServer, webDistWithIndex, type SignedIn, type TestServer } from './test-server.js';

type ChannelDto = {
  id: number;
  name: string;
  slug: string;
  description: string;
  avatar: string | null;
  cover: string | null;
  links: { label: string; url: string }[];
  visibility: string;
  followers_count: number;
  is_following: boolean;
  can_edit: boolean;
  is_live: boolean;
  upcoming: { name: string; url_slug: string; state: string }[];
  past: unknown[];
  live: unknown;
};
type Page = { channel: ChannelDto | null; broadcast: { name: string; url_slug: string } | null };

describe.each(BACKENDS)('channels on %s', (backend) => {
  let server: TestServer;
  let admin: SignedIn;
  let ann: SignedIn;
  let bob: SignedIn;
  let annChannel: ChannelDto;
  beforeAll(async () => {
    server = await startTestServer(backend, {
      LOG_LEVEL: 'error',
      WEB_DIST_DIR: webDistWithIndex(),
      PUBLIC_URL: 'https://meet.example.com',
    });
    admin = await server.signUp({ username: 'Admin' });
    ann = await server.signUp({ username: 'Ann' });
    bob = await server.signUp({ username: 'Bob' });
  });
  afterAll(() => server.close());

  it('creates one channel per user with a unique, valid slug', async () => {
    expect((await server.post('check-channel-slug.php', { token: ann.token, slug: 'Ann Talks' })).httpStatus).toBe(400);
    expect((await server.post('check-channel-slug.php', { token: ann.token, slug: 'ann-talks' })).httpStatus).toBe(200);
    const created = await server.post<ChannelDto>('create-channel.php', {
      token: ann.token,
      name: 'Ann Talks',
      slug: 'ann-talks',
      description: 'Weekly talks about <b>things</b>',
      category: 'education',
      links: JSON.stringify([{ label: 'Site', url: 'https://ann.example.com' }]),
    });
    expect(created.httpStatus).toBe(200);
    annChannel = created.body.data as ChannelDto;
    expect(annChannel).toMatchObject({
      slug: 'ann-talks',
      visibility: 'public',
      followers_count: 0,
      can_edit: true,
      links: [{ label: 'Site', url: 'https://ann.example.com' }],
    });
    const second = await server.post('create-channel.php', { token: ann.token, name: 'Again', slug: 'ann-again' });
    expect(second.httpStatus).toBe(409);
    const taken = await server.post('create-channel.php', { token: bob.token, name: 'Bob', slug: 'ann-talks' });
    expect(taken.httpStatus).toBe(409);
    expect((await server.post('check-channel-slug.php', { token: bob.token, slug: 'ann-talks' })).httpStatus).toBe(409);
    expect((await server.post('check-channel-slug.php', { token: ann.token, slug: 'ann-talks' })).httpStatus).toBe(200);
    const badLink = await server.post('create-channel.php', {
      token: bob.token,
      name: 'Bob',
      slug: 'bob-tv',
      links: JSON.stringify([{ label: 'x', url: 'javascript:alert(1)' }]),
    });
    expect(badLink.httpStatus).toBe(400);
    const mine = await server.post<{ data: ChannelDto | null }>('get-my-channel.php', { token: bob.token });
    expect(mine.body.data?.data).toBeNull();
  });

  it('lets only the owner or an administrator change a channel', async () => {
    const bobTry = await server.post('update-channel.php', { token: bob.token, id: annChannel.id, name: 'Pwned' });
    expect(bobTry.httpStatus).toBe(403);
    expect((await server.post('get-edit-channel.php', { token: bob.token, id: annChannel.id })).httpStatus).toBe(403);
    const [row] = await server.database.handle.db.select().from(channels).where(eq(channels.id, annChannel.id));
    expect(row?.name).toBe('Ann Talks');
    const byAdmin = await server.post<ChannelDto>('update-channel.php', {
      token: admin.token,
      id: annChannel.id,
      description: 'Edited by the administrator',
    });
    expect(byAdmin.httpStatus).toBe(200);
    const byOwner = await server.post<ChannelDto>('update-channel.php', {
      token: ann.token,
      id: annChannel.id,
      name: 'Ann Live',
    });
    expect(byOwner.body.data).toMatchObject({ name: 'Ann Live', description: 'Edited by the administrator' });
    expect((await server.post('update-channel.php', { token: ann.token, id: 999999, name: 'x y' })).httpStatus).toBe(
      404,
    );
    const fake = await postFile(
      server,
      'upload-channel-image.php',
      { token: bob.token, id: annChannel.id, kind: 'cover' },
      {
        filename: 'cover.png',
        type: 'image/png',
        bytes: await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
          .png()
          .toBuffer(),
      },
    );
    expect(fake.httpStatus).toBe(403);
  });

  it('uploads channel pictures: real images re-encoded, fake ones refused', async () => {
    const photo = await sharp({ create: { width: 2400, height: 900, channels: 3, background: '#3366cc' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'Secret Place' } } })
      .toBuffer();
    const cover = await postFile<ChannelDto>(
      server,
      'upload-channel-image.php',
      { token: ann.token, id: annChannel.id, kind: 'cover' },
      {
        filename: 'cover.jpg',
        type: 'image/jpeg',
        bytes: photo,
      },
    );
    expect(cover.httpStatus).toBe(200);
    const path = cover.body.data?.cover ?? '';
    expect(path).toMatch(/^uploads\/covers\/[a-f0-9]{32}\.webp$/);
    const served = await fetch(`${server.baseUrl}/${path}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1600, height: 400 });
    expect(meta.exif).toBeUndefined();

    const fake = await postFile(
      server,
      'upload-channel-image.php',
      { token: ann.token, id: annChannel.id, kind: 'avatar' },
      {
        filename: 'avatar.png',
        type: 'image/png',
        bytes: 'I am a text file pretending to be a picture',
      },
    );
    expect(fake.httpStatus).toBe(400);
    expect(fake.body.message).toBe('This file is not a JPEG, PNG or WebP picture. Choose another one.');
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    const gifAnswer = await postFile(
      server,
      'upload-channel-image.php',
      { token: ann.token, id: annChannel.id, kind: 'avatar' },
      {
        filename: 'x.png',
        type: 'image/png',
        bytes: gif,
      },
    );
    expect(gifAnswer.httpStatus).toBe(400);
    expect((await fetch(`${server.baseUrl}/uploads/covers/..%2F..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/uploads/covers/${'a'.repeat(32)}.webp`)).status).toBe(404);
  });

  it('browses public channels live first, finds unlisted ones by link only, hides hidden ones', async () => {
    const bobChannel = (
      await server.post<ChannelDto>('create-channel.php', {
        token: bob.token,
        name: 'Bob Gaming',
        slug: 'bob-gaming',
        category: 'gaming',
      })
    ).body.data as ChannelDto;
    const carl = await server.signUp({ username: 'Carl' });
    const unlisted = (
      await server.post<ChannelDto>('create-channel.php', {
        token: carl.token,
        name: 'Carl Secret',
        slug: 'carl-secret',
        visibility: 'unlisted',
      })
    ).body.data as ChannelDto;

    const names = async (fields: Record<string, string | number> = {}) =>
      (await server.post<{ data: ChannelDto[] }>('get-channels.php', fields)).body.data?.data.map((c) => c.name);
    expect(await names()).toEqual(['Ann Live', 'Bob Gaming']);
    // A live broadcast puts its channel first: its broadcast on air, not people in its room (ADR 022).
    const [speedrun] = await server.database.handle.db
      .insert(meetings)
      .values({
        hostId: bob.user.id,
        name: 'Speedrun',
        slug: 'bob-speedrun',
        isSchedule: 1,
        startTime: new Date(),
        endTime: new Date(Date.now() + 3600_000),
        state: 'live',
        channelId: bobChannel.id,
      })
      .returning();
    expect(await names()).toEqual(['Ann Live', 'Bob Gaming']);
    await server.database.handle.db.insert(liveBroadcasts).values({ meetingId: speedrun!.id, state: 'live' });
    expect(await names()).toEqual(['Bob Gaming', 'Ann Live']);
    expect(await names({ search: 'gam' })).toEqual(['Bob Gaming']);
    expect(await names({ category: 'education' })).toEqual(['Ann Live']);

    const byLink = await server.post<Page>('get-channel.php', { slug: 'carl-secret' });
    expect(byLink.httpStatus).toBe(200);
    expect(byLink.body.data?.channel?.name).toBe('Carl Secret');
    const live = await server.post<Page>('get-channel.php', { slug: 'bob-speedrun' });
    expect(live.body.data).toMatchObject({
      channel: { name: 'Bob Gaming', is_live: true },
      broadcast: { name: 'Speedrun' },
    });

    await server.database.handle.db.update(channels).set({ hiddenAt: new Date() }).where(eq(channels.id, unlisted.id));
    expect((await server.post('get-channel.php', { slug: 'carl-secret' })).httpStatus).toBe(404);
    expect((await server.post('get-channel.php', { slug: 'carl-secret', token: carl.token })).httpStatus).toBe(200);
    expect((await server.post('get-channel.php', { slug: 'no-such-thing' })).httpStatus).toBe(404);
    expect((await server.post('follow-channel.php', { token: ann.token, id: unlisted.id })).httpStatus).toBe(404);
  });

  it('follows, notifies followers of scheduled and live broadcasts, unfollows', async () => {
    const followed = await server.post<{ followers_count: number; is_following: boolean }>('follow-channel.php', {
      token: bob.token,
      id: annChannel.id,
    });
    expect(followed.body.data).toEqual({ followers_count: 1, is_following: true });
    await server.post('follow-channel.php', { token: bob.token, id: annChannel.id });
    expect((await server.post('follow-channel.php', { token: ann.token, id: annChannel.id })).httpStatus).toBe(400);
    const following = await server.post<{ data: ChannelDto[] }>('get-channels.php', { token: bob.token, following: 1 });
    expect(following.body.data?.data.map((c) => c.name)).toEqual(['Ann Live']);

    const start = Math.floor(Date.now() / 1000) + 3600;
    expect(
      (
        await server.post('schedule-broadcast.php', {
          token: bob.token,
          id: annChannel.id,
          name: 'x',
          start_time: start,
          end_time: start + 60,
        })
      ).httpStatus,
    ).toBe(403);
    expect(
      (
        await server.post('schedule-broadcast.php', {
          token: ann.token,
          id: annChannel.id,
          name: 'x',
          start_time: start,
          end_time: start - 60,
        })
      ).httpStatus,
    ).toBe(400);
    const scheduled = await server.post<{ url_slug: string; state: string }>('schedule-broadcast.php', {
      token: ann.token,
      id: annChannel.id,
      name: 'Q&A <live>',
      start_time: start,
      end_time: start + 3600,
    });
    expect(scheduled.httpStatus).toBe(200);
    expect(scheduled.body.data?.state).toBe('scheduled');
    const notes = await server.post<{ data: { text: string }[] }>('get-user-notification.php', { token: bob.token });
    const text = notes.body.data?.data[0]?.text ?? '';
    expect(text).toContain('Q&#38;A &#60;live&#62;');
    expect(text).toContain(`https://meet.example.com/channel/${scheduled.body.data?.url_slug}`);

    const [meeting] = await server.database.handle.db
      .select()
      .from(meetings)
      .where(eq(meetings.slug, scheduled.body.data?.url_slug ?? ''));
    expect(await notifyChannelFollowers(server.built.context, meeting?.id ?? 0, 'live')).toBe(1);
    const after = await server.post<{ data: { text: string }[] }>('get-user-notification.php', { token: bob.token });
    expect(after.body.data?.data[0]?.text).toContain('is live now');
    // Followers are e-mailed too when it goes live (not when it is scheduled), with the plain names.
    const mail = await server.mail.waitFor(bob.email, (message) => message.subject.includes('is live now'));
    expect(mail.subject).toBe('Ann Live is live now: Q&A <live>');
    expect(mail.text).toContain(`https://meet.example.com/channel/${scheduled.body.data?.url_slug}`);
    expect(
      server.mail.messages.filter((message) => message.to.includes(bob.email) && message.subject.includes('scheduled')),
    ).toEqual([]);

    const mine = await server.post<{ data: ChannelDto }>('get-my-channel.php', { token: ann.token });
    expect(mine.body.data?.data.followers_count).toBe(1);
    expect(mine.body.data?.data.upcoming.map((b) => b.name)).toEqual(['Q&A <live>']);

    const unfollowed = await server.post<{ followers_count: number }>('unfollow-channel.php', {
      token: bob.token,
      id: annChannel.id,
    });
    expect(unfollowed.body.data?.followers_count).toBe(0);
  });

  it('serves public channel pages with escaped Open Graph tags', async () => {
    await server.post('update-channel.php', {
      token: ann.token,
      id: annChannel.id,
      description: 'Talks "quoted" & <tags>',
    });
    const page = await fetch(`${server.baseUrl}/channel/ann-talks`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<meta property="og:title" content="Ann Live" />');
    expect(html).toContain('content="Talks &#34;quoted&#34; &#38; &#60;tags&#62;"');
    expect(html).toMatch(
      /<meta property="og:image" content="https:\/\/meet\.example\.com\/uploads\/covers\/[a-f0-9]{32}\.webp" \/>/,
    );
    expect(html).toContain('<meta property="og:url" content="https://meet.example.com/channel/ann-talks" />');
    // The channel's description replaces the app's own: one description, the channel's.
    expect(html.match(/<meta name="description"[^>]*>/g)).toEqual([
      '<meta name="description" content="Talks &#34;quoted&#34; &#38; &#60;tags&#62;" />',
    ]);
    expect(html).toContain('<div id="root"></div>');
    // The page carries what its scripts would ask first (signed out), where no text can end the block.
    const block = /<script type="application\/json" id="channel-page">([^<]*)<\/script>/.exec(html);
    const signedOut = await server.post<{ data: unknown }>('get-channel.php', { slug: 'ann-talks' });
    expect(JSON.parse(block![1]!)).toEqual(signedOut.body.data);
    expect(block![1]).toContain('Talks \\"quoted\\" & \\u003ctags>');
    const missing = await fetch(`${server.baseUrl}/channel/nothing-here`);
    expect(missing.status).toBe(404);
    const missingHtml = await missing.text();
    expect(missingHtml).toContain('noindex');
    expect(missingHtml).not.toContain('application/json');
  });
});
