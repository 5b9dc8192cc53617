import {
  DEFAULT_BRAND_KIT,
  NAME_TAG_STYLES,
  type BrandImageKind,
  type BrandKit,
  type NameTagStyle,
} from '@meetcast/contracts';
import {
  and,
  asc,
  brandKits,
  brandOverlays,
  channels,
  eq,
  inArray,
  liveBroadcasts,
  meetings,
  type BrandKitRow,
  type BrandOverlayRow,
  type UserRow,
} from '@meetcast/db';
import type { AppContext } from '../context.js';
import { badRequest } from '../http/app-error.js';
import { removeImage, storeImage, type ImageKind } from '../uploads/images.js';
import { RUNNING_BROADCAST_STATES } from './state/transitions.js';

const IMAGE_KIND: Record<BrandImageKind, ImageKind> = {
  logo: 'brand-logo',
  background: 'brand-background',
  overlay: 'brand-overlay',
};
/** A picture's kind is also its column's name. */
const column = (kind: BrandImageKind) => kind satisfies keyof BrandKitRow;

const pictureUrl = (path: string | null) => (path ? `/${path}` : null);

export function brandKitView(row: BrandKitRow | undefined, library: BrandOverlayRow[] = []): BrandKit {
  const overlays = library.map((overlay) => ({ id: overlay.id, url: `/${overlay.path}` }));
  if (!row) return { ...DEFAULT_BRAND_KIT, overlays };
  return {
    accent_color: row.accentColor,
    // Stored as text and only ever written through the update call's enum.
    name_tag_style: NAME_TAG_STYLES.find((style) => style === row.nameTagStyle) ?? 'classic',
    logo_url: pictureUrl(row.logo),
    background_url: pictureUrl(row.background),
    overlay_url: pictureUrl(row.overlay),
    overlays,
  };
}

/** A channel's overlay library, oldest first. */
export async function overlayLibrary(context: AppContext, channelId: number) {
  return context.db
    .select()
    .from(brandOverlays)
    .where(eq(brandOverlays.channelId, channelId))
    .orderBy(asc(brandOverlays.id));
}

/** The brand kit a meeting's broadcast wears: its host's channel's, or the defaults. */
export async function brandKitOfHost(context: AppContext, hostId: number): Promise<BrandKit> {
  const [channel] = await context.db.select({ id: channels.id }).from(channels).where(eq(channels.ownerId, hostId));
  if (!channel) return brandKitView(undefined);
  return brandKitView(await kitRow(context, channel.id), await overlayLibrary(context, channel.id));
}

/** The caller's channel; a brand kit belongs to one (an account has at most one channel). */
export async function ownChannelId(context: AppContext, user: UserRow) {
  const [channel] = await context.db.select({ id: channels.id }).from(channels).where(eq(channels.ownerId, user.id));
  if (!channel) throw badRequest('broadcasts.brand_channel_required');
  return channel.id;
}

async function kitRow(context: AppContext, channelId: number) {
  const [row] = await context.db.select().from(brandKits).where(eq(brandKits.channelId, channelId));
  return row;
}

/** The kit of a channel as its edit form sees it, library included. */
export async function channelBrandKit(context: AppContext, channelId: number) {
  return brandKitView(await kitRow(context, channelId), await overlayLibrary(context, channelId));
}

export async function getBrandKit(context: AppContext, user: UserRow) {
  return channelBrandKit(context, await ownChannelId(context, user));
}

/** Writes the kit (made on its first change) and tells the host's running broadcasts to redraw. */
async function saveKit(context: AppContext, user: UserRow, channelId: number, values: Partial<BrandKitRow>) {
  await context.db
    .insert(brandKits)
    .values({ channelId, ...values })
    .onConflictDoUpdate({ target: brandKits.channelId, set: { ...values, updatedAt: new Date() } });
  await announceKitChange(context, user);
  return channelBrandKit(context, channelId);
}

/** The host's running broadcasts redraw at once (pushed, ADR 022): their kit changed. */
export async function announceKitChange(context: AppContext, user: UserRow) {
  const running = await context.db
    .select({ broadcastId: liveBroadcasts.id, meetingId: meetings.id })
    .from(liveBroadcasts)
    .innerJoin(meetings, eq(meetings.id, liveBroadcasts.meetingId))
    .where(and(eq(meetings.hostId, user.id), inArray(liveBroadcasts.state, [...RUNNING_BROADCAST_STATES])));
  for (const { broadcastId, meetingId } of running)
    context.events.emit('broadcast.changed', { broadcastId, meetingId });
}

export async function updateBrandKit(
  context: AppContext,
  user: UserRow,
  fields: { accent_color?: string | undefined; name_tag_style?: NameTagStyle | undefined },
) {
  const channelId = await ownChannelId(context, user);
  return saveKit(context, user, channelId, {
    ...(fields.accent_color ? { accentColor: fields.accent_color } : {}),
    ...(fields.name_tag_style ? { nameTagStyle: fields.name_tag_style } : {}),
  });
}

export async function uploadBrandImage(
  context: AppContext,
  user: UserRow,
  kind: BrandImageKind,
  bytes: Uint8Array | undefined,
) {
  const channelId = await ownChannelId(context, user);
  const before = await kitRow(context, channelId);
  const path = await storeImage(context, bytes, IMAGE_KIND[kind]);
  const kit = await saveKit(context, user, channelId, { [column(kind)]: path });
  await removeImage(context, before?.[column(kind)]);
  return kit;
}

export async function removeBrandImage(context: AppContext, user: UserRow, kind: BrandImageKind) {
  const channelId = await ownChannelId(context, user);
  const before = await kitRow(context, channelId);
  const kit = await saveKit(context, user, channelId, { [column(kind)]: null });
  await removeImage(context, before?.[column(kind)]);
  return kit;
}
