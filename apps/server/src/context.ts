import type { DatabaseHandle } from '@meetcast/db';
import type { Redis } from 'ioredis';
import type { AccountsContext } from './accounts/accounts-context.js';
import type { MediaService } from './media/media-service.js';
import type { Notifier } from './notifications/notifier.js';
import type { AppEvents } from './platform/app-events.js';

/**
 * What route modules and services share; built once in app.ts and passed down explicitly. The
 * services below it (accounts, notifications, media) name only the parts they use, so that this
 * file depends on them and never the other way round.
 */
export interface AppContext extends AccountsContext {
  database: DatabaseHandle;
  redis: Redis | undefined;
  notifier: Notifier;
  /** Janus instances, room placement and room administration. */
  media: MediaService;
  /** Typed in-process events between features (platform/app-events.ts). */
  events: AppEvents;
}
