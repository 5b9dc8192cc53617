import { and, eq, gt, mediaServers, ne, type Database } from '@meetcast/db';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../env.js';
import type { ManagedJanus } from './managed-janus.js';
import { runPeriodically, type PeriodicJob } from '../platform/periodic.js';

/** No Janus could be reached (not installed, not started, or every JANUS_URL down). */
export class MediaUnavailableError extends Error {}

/** Where a browser's media connection goes, with the secrets our proxy adds on its behalf. */
export interface JanusTarget {
  url: string;
  apiSecret: string | undefined;
  adminKey: string | undefined;
}

/** Managed instances refresh their registration this often, and count as gone after three misses. */
const REGISTRY_HEARTBEAT_MS = 10_000;
const REGISTRY_STALE_MS = 3 * REGISTRY_HEARTBEAT_MS;

/**
 * Which Janus instances exist: JANUS_URL's, or the one this process starts and supervises together
 * with those the installation's other processes registered in `media_servers` (each refreshes its
 * row while it lives).
 */
export class JanusRegistry {
  private registeredUrl: string | undefined;
  private heartbeat: PeriodicJob | undefined;

  constructor(
    private readonly db: Database,
    private readonly config: AppConfig,
    private readonly log: FastifyBaseLogger,
    private readonly managed: ManagedJanus | undefined,
  ) {}

  /**
   * The instances rooms may be placed on: JANUS_URL's, or this process's managed Janus (started on
   * first use) together with the managed instances other processes of the installation registered.
   */
  async targets(): Promise<JanusTarget[]> {
    if (!this.managed) {
      return this.config.janusUrls.map((url) => ({
        url,
        apiSecret: this.config.janus.apiSecret,
        adminKey: this.config.janus.adminKey,
      }));
    }
    let own: JanusTarget | undefined;
    let failure: unknown;
    try {
      const url = await this.managed.ensureStarted();
      own = { url, apiSecret: this.managed.apiSecret, adminKey: this.managed.adminKey };
      if (this.registeredUrl !== url) await this.register(url);
    } catch (error) {
      failure = error;
    }
    const others = await this.registeredElsewhere(own?.url);
    const all = own ? [own, ...others] : others;
    if (all.length === 0) {
      throw new MediaUnavailableError(failure instanceof Error ? failure.message : String(failure));
    }
    return all;
  }

  /** Tells the other processes where this process's Janus is, and keeps telling them while it lives. */
  private async register(url: string) {
    const managed = this.managed;
    if (!managed) return;
    const beat = async () => {
      const row = { url, apiSecret: managed.apiSecret, adminKey: managed.adminKey, heartbeatAt: new Date() };
      await this.db.insert(mediaServers).values(row).onConflictDoUpdate({ target: mediaServers.url, set: row });
    };
    await beat();
    this.registeredUrl = url;
    await this.heartbeat?.stop();
    this.heartbeat = runPeriodically(beat, {
      everyMs: REGISTRY_HEARTBEAT_MS,
      onError: (error) => this.log.warn({ err: error }, 'media: janus registration failed'),
    });
  }

  private async registeredElsewhere(ownUrl: string | undefined): Promise<JanusTarget[]> {
    const fresh = new Date(Date.now() - REGISTRY_STALE_MS);
    const rows = await this.db
      .select()
      .from(mediaServers)
      .where(and(gt(mediaServers.heartbeatAt, fresh), ownUrl ? ne(mediaServers.url, ownUrl) : undefined));
    return rows.map((row) => ({ url: row.url, apiSecret: row.apiSecret, adminKey: row.adminKey }));
  }

  /**
   * The secrets for a recorded instance, or undefined when that instance is not ours any more. Our
   * own and configured instances are known without asking the registry.
   */
  async target(url: string): Promise<JanusTarget | undefined> {
    if (!this.managed) return (await this.targets()).find((target) => target.url === url);
    if (this.managed.url === url) return { url, apiSecret: this.managed.apiSecret, adminKey: this.managed.adminKey };
    return this.registeredAnyAge(url);
  }

  /**
   * A managed instance whose process stopped refreshing it gets no new rooms, but the rooms it holds
   * stay on it while it still answers (a Janus outlives a server process killed outright): moving
   * them would split the people already in the call from those who come later.
   */
  private async registeredAnyAge(url: string): Promise<JanusTarget | undefined> {
    if (!this.managed) return undefined;
    const [row] = await this.db.select().from(mediaServers).where(eq(mediaServers.url, url));
    return row ? { url: row.url, apiSecret: row.apiSecret, adminKey: row.adminKey } : undefined;
  }

  /** This process's instance leaves the registry. */
  async close() {
    await this.heartbeat?.stop();
    if (!this.registeredUrl) return;
    await this.db
      .delete(mediaServers)
      .where(eq(mediaServers.url, this.registeredUrl))
      .catch(() => undefined);
  }
}
