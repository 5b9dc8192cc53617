import type { AppContext } from '../../context.js';
import { changeRunningBroadcast } from '../state/broadcast-state.js';
import type { Quality } from './capacity.js';

/**
 * The one place the composer changes the quality it encodes at (the Live panel's notice says so
 * when it is lighter than 720p30). Written by the broadcasts' state module, which announces
 * `broadcast.changed`, so that the studio hears of a step down at once.
 */
export async function writeBroadcastQuality(context: AppContext, broadcast: { id: number }, quality: Quality['name']) {
  await changeRunningBroadcast(context, broadcast.id, { quality });
}
