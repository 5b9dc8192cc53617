import type { StreamPlatform } from '@meetcast/contracts';
import type { AppContext } from '../../context.js';
import type { DestinationDriver } from '../destination-driver.js';
import { createRtmpDriver } from './rtmp.js';
import { createTwitchDriver } from './twitch.js';
import { createYouTubeDriver } from './youtube.js';

/** One driver per platform; each reads its destination's connection (and tokens) itself. */
export function createDestinationDrivers(context: AppContext): Record<StreamPlatform, DestinationDriver> {
  return {
    youtube: createYouTubeDriver(context),
    twitch: createTwitchDriver(context),
    rtmp: createRtmpDriver(context),
  };
}
