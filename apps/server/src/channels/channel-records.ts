import { channels, eq, type Database } from '@meetcast/db';
import type { ChannelRow } from './channel-queries.js';

/**
 * The administrators' writes on `channels`, which channels/ owns (ADR 013, lint rule
 * `meetcast/table-owners`); the owner's own changes are in channel-service.ts. Each takes the
 * caller's transaction, so that the change and its audit entry stay one atomic step.
 */

/** A hidden channel leaves browsing, and its public page says it is unavailable. */
export async function setChannelHidden(db: Database, id: number, isHidden: boolean) {
  const now = new Date();
  await db
    .update(channels)
    .set({ hiddenAt: isHidden ? now : null, updatedAt: now })
    .where(eq(channels.id, id));
}

/** Its followers go with it (the database cascades); returns the deleted channel, if there was one. */
export async function deleteChannel(db: Database, id: number): Promise<ChannelRow | undefined> {
  const [row] = await db.delete(channels).where(eq(channels.id, id)).returning();
  return row;
}
