import { BRAND_OVERLAY_LIBRARY_LIMIT, type BrandKit, type OverlayImageChoice } from '@meetcast/contracts';
import { and, brandOverlays, channels, count, eq, type BroadcastRow, type UserRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import type { Executor } from '../meeting-records/meeting-repository.js';
import { conflict, notFound } from '../http/app-error.js';
import { removeImage, storeImage } from '../uploads/images.js';
import { announceKitChange, channelBrandKit, ownChannelId } from './brand-kit-service.js';

const libraryFull = () => conflict('broadcasts.overlay_library_full', { limit: BRAND_OVERLAY_LIBRARY_LIMIT });

async function librarySize(db: Executor, channelId: number) {
  const [row] = await db.select({ size: count() }).from(brandOverlays).where(eq(brandOverlays.channelId, channelId));
  return row?.size ?? 0;
}

/**
 * Adds an image to the caller's overlay library (issue 45), re-encoded like the standard overlay.
 * A full library is a 409 before the image is even read; two uploads racing for the last place are
 * settled under the channel's row lock, and the loser's file is deleted.
 */
export async function addBrandOverlay(context: AppContext, user: UserRow, bytes: Uint8Array | undefined) {
  const channelId = await ownChannelId(context, user);
  if ((await librarySize(context.db, channelId)) >= BRAND_OVERLAY_LIBRARY_LIMIT) throw libraryFull();
  const path = await storeImage(context, bytes, 'brand-overlay');
  const added = await context.db.transaction(async (tx) => {
    await tx.select({ id: channels.id }).from(channels).where(eq(channels.id, channelId)).for('update');
    if ((await librarySize(tx, channelId)) >= BRAND_OVERLAY_LIBRARY_LIMIT) return false;
    await tx.insert(brandOverlays).values({ channelId, path });
    return true;
  });
  if (!added) {
    await removeImage(context, path);
    throw libraryFull();
  }
  return channelBrandKit(context, channelId);
}

/**
 * Deletes one overlay of the caller's library and its file; a broadcast showing it shows nothing
 * from then on (its choice is cleared by the foreign key) and redraws at once.
 */
export async function removeBrandOverlay(context: AppContext, user: UserRow, id: number) {
  const channelId = await ownChannelId(context, user);
  const [removed] = await context.db
    .delete(brandOverlays)
    .where(and(eq(brandOverlays.id, id), eq(brandOverlays.channelId, channelId)))
    .returning();
  if (!removed) throw notFound('broadcasts.overlay_not_found');
  await removeImage(context, removed.path);
  await announceKitChange(context, user);
  return channelBrandKit(context, channelId);
}

/** The `live_broadcasts` columns an overlay-image choice writes. */
export interface OverlayImageColumns {
  overlayImage: 'kit' | 'none' | 'library';
  overlayImageId: number | null;
}

/**
 * The columns for a host's pick on a broadcast of a meeting hosted by `hostId`: a library overlay
 * must be one of that host's channel's (the kit the broadcast wears), else 404.
 */
export async function overlayImageColumns(
  context: AppContext,
  hostId: number,
  choice: 'kit' | 'none' | number,
): Promise<OverlayImageColumns> {
  if (choice === 'kit' || choice === 'none') return { overlayImage: choice, overlayImageId: null };
  const [owned] = await context.db
    .select({ id: brandOverlays.id })
    .from(brandOverlays)
    .innerJoin(channels, eq(channels.id, brandOverlays.channelId))
    .where(and(eq(brandOverlays.id, choice), eq(channels.ownerId, hostId)));
  if (!owned) throw notFound('broadcasts.overlay_not_found');
  return { overlayImage: 'library', overlayImageId: owned.id };
}

/**
 * What a broadcast's overlay-image columns come to with the kit it wears: the host's pick for the
 * studio, and the picture on the stream for the composer. A library overlay since deleted is none.
 */
export function overlayImageOnAir(
  broadcast: Pick<BroadcastRow, 'overlayImage' | 'overlayImageId'>,
  brand: BrandKit,
): { choice: OverlayImageChoice; url: string | null } {
  if (broadcast.overlayImage === 'none') return { choice: 'none', url: null };
  if (broadcast.overlayImage === 'library') {
    const overlay = brand.overlays?.find((item) => item.id === broadcast.overlayImageId);
    return overlay ? { choice: overlay.id, url: overlay.url } : { choice: 'none', url: null };
  }
  return { choice: 'kit', url: brand.overlay_url };
}
