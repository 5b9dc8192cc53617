import type { AppContext } from '../../context.js';
import type { JanusClient } from '../../media/janus-client.js';
import type { JanusTarget } from '../../media/janus-registry.js';

/** One Janus a broadcast's WebRTC audience is served from, with the meeting room's secret and pin. */
export interface AudienceInstance {
  target: JanusTarget;
  client: JanusClient;
  secret: string;
  pin: string;
}

/** Where the composer sends a mountpoint's RTP, and what the mountpoint's ports listen on. */
export interface MountpointPlace extends AudienceInstance {
  rtpHost: string;
  iface: string | undefined;
}

/**
 * The instances besides the room's that a broadcast's audience spreads over (ADR 036): every other
 * JANUS_URL instance that answers. A managed Janus belongs to its server process (its address is a
 * loopback one, its RTP ports too), so an installation of managed instances keeps one mountpoint.
 */
async function otherInstances(context: AppContext, homeUrl: string) {
  if (context.media.managed) return [];
  const targets = (await context.media.targets()).filter((target) => target.url !== homeUrl);
  const reached = await Promise.all(
    targets.map(async (target) => {
      const client = await context.media.client(target).catch((error: unknown) => {
        context.log.warn({ url: target.url, err: error }, 'viewers: janus instance unreachable, not serving from it');
        return undefined;
      });
      return client ? { target, client } : undefined;
    }),
  );
  return reached.filter((entry) => entry !== undefined);
}

/** Where the composer makes a broadcast's mountpoints: the room's instance first, then every other. */
export async function mountpointPlaces(
  context: AppContext,
  meeting: { id: number; name: string },
): Promise<MountpointPlace[]> {
  const home = await context.media.streamingFor(meeting);
  const others = await otherInstances(context, home.target.url);
  return [
    home,
    ...others.map(({ target, client }) => ({
      ...home,
      target,
      client,
      rtpHost: new URL(target.url).hostname,
      iface: undefined,
    })),
  ];
}

/** The instances a viewer of the meeting's broadcast may be sent to (none while it has no room). */
export async function watchInstances(context: AppContext, meetingId: number): Promise<AudienceInstance[]> {
  const home = await context.media.placedStreaming(meetingId);
  if (!home) return [];
  const others = await otherInstances(context, home.target.url);
  return [home, ...others.map(({ target, client }) => ({ ...home, target, client }))];
}

/**
 * The viewers this process sends to each instance: the next one goes to the instance holding the
 * fewest. Counted here rather than asked of Janus, so that viewers arriving in the same second (a
 * shared link) are spread, not all sent where the count read a moment ago was lowest; each process
 * spreads its own viewers, so an installation's audience is spread too.
 */
export class AudienceBalance {
  private readonly open = new Map<string, number>();

  /** The least loaded of `instances`, held until the returned release is called. */
  pick<T extends AudienceInstance>(instances: T[]): { instance: T; release: () => void } | undefined {
    const load = (instance: T) => this.open.get(instance.target.url) ?? 0;
    const instance = [...instances].sort((a, b) => load(a) - load(b))[0];
    if (!instance) return undefined;
    const url = instance.target.url;
    this.open.set(url, load(instance) + 1);
    let isReleased = false;
    const release = () => {
      if (isReleased) return;
      isReleased = true;
      const left = (this.open.get(url) ?? 1) - 1;
      if (left > 0) this.open.set(url, left);
      else this.open.delete(url);
    };
    return { instance, release };
  }
}
