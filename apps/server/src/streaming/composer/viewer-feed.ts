import { mkdirSync, rmSync } from 'node:fs';
import type { AppContext } from '../../context.js';
import { JanusError, STREAMING_NO_SUCH_MOUNTPOINT } from '../../media/janus-client.js';
import { mountpointPlaces, type MountpointPlace } from '../viewers/audience-instances.js';
import { liveStreamFolder, mountpointId } from '../viewers/viewer-keys.js';
import type { ProcessLedger } from './child-processes.js';
import { EncodeReader } from './encode-reader.js';
import { hlsRenditionArgs } from '../viewers/hls-renditions.js';
import type { MediaFanOut } from './media-fan-out.js';
import { runPeriodically, type PeriodicJob } from '../../platform/periodic.js';

const FROM_ENCODE = [
  ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
  ...['-analyzeduration', '3000000', '-probesize', '5000000'],
  ...['-f', 'mpegts', '-i', 'pipe:0'],
];
/** How often the mountpoint is checked: a Janus that restarted has lost it (and its ports). */
const MOUNTPOINT_CHECK_MS = 5000;

/**
 * What the public channel page plays (ADR 011), fed by the broadcast's one encode: a Janus
 * Streaming mountpoint for WebRTC viewers (the H.264 copied, AAC turned into Opus, RTP into the
 * mountpoint's ports) on every Janus instance of the installation (ADR 036: the room's, and every
 * other JANUS_URL one), and HLS under DATA_DIR for viewers WebRTC cannot reach, who rewind, or who
 * want the sound alone (viewers/hls-renditions.ts). All exist only while the broadcast runs.
 */
export class ViewerFeed {
  private readers: EncodeReader[] = [];
  /** Per instance (its URL): the mountpoint made there and the ffmpeg sending it RTP. */
  private readonly mountpoints = new Map<string, { place: MountpointPlace; id: number; reader: EncodeReader }>();
  private mountpointCheck: PeriodicJob | undefined;

  constructor(
    private readonly context: AppContext,
    private readonly ledger: ProcessLedger,
    private readonly source: MediaFanOut,
    private readonly broadcastId: number,
    private readonly log: (message: string) => void,
  ) {}

  /** A reader of the encode that falls behind is restarted, live, rather than waited for. */
  private reader(name: string, args: string[]) {
    const options = {
      name,
      args: () => [...FROM_ENCODE, ...args],
      backlog: { maxBytes: 4 * 1024 * 1024, then: 'restart' as const },
      stopTimeoutMs: 3000,
    };
    const reader = new EncodeReader(this.ledger, this.source, options, this.log);
    this.readers.push(reader);
    reader.start();
    return reader;
  }

  private get hlsFolder() {
    return liveStreamFolder(this.context.config, this.broadcastId);
  }

  async start(meeting: { id: number; name: string }) {
    this.startHls();
    await this.startWebRtc(meeting).catch((error: unknown) => {
      // Viewers still have HLS; the broadcast itself is not worth failing for this.
      this.log(`no WebRTC mountpoint: ${String(error)}`);
    });
    this.mountpointCheck = runPeriodically(() => this.keepMountpoint(meeting), {
      everyMs: MOUNTPOINT_CHECK_MS,
      onError: (error) => this.log(`checking the WebRTC mountpoint failed: ${String(error)}`),
    });
  }

  /** Creates a mountpoint again (Janus picks new ports, so its RTP reader starts again too) once it is gone. */
  private async keepMountpoint(meeting: { id: number; name: string }) {
    const id = mountpointId(this.context.config, this.broadcastId);
    for (const place of await mountpointPlaces(this.context, meeting)) {
      const isThere = await place.client.mountpointViewers(id, place.secret).then(
        () => true,
        (error: unknown) => {
          if (error instanceof JanusError && error.code === STREAMING_NO_SUCH_MOUNTPOINT) return false;
          throw error;
        },
      );
      if (isThere || this.mountpointCheck === undefined) continue;
      this.log(`the WebRTC mountpoint on ${place.target.url} is gone (Janus restarted?): creating it again`);
      await this.startMountpoint(place, meeting);
    }
  }

  private async startWebRtc(meeting: { id: number; name: string }) {
    const places = await mountpointPlaces(this.context, meeting);
    const results = await Promise.allSettled(places.map((place) => this.startMountpoint(place, meeting)));
    // The room's instance is the one every viewer can be sent to: without it there is no WebRTC.
    if (results[0]?.status === 'rejected') throw results[0].reason;
    results.forEach((result, index) => {
      if (result.status === 'rejected')
        this.log(`no WebRTC mountpoint on ${places[index]!.target.url}: ${String(result.reason)}`);
    });
  }

  private async startMountpoint(place: MountpointPlace, meeting: { id: number; name: string }) {
    const id = mountpointId(this.context.config, this.broadcastId);
    const stale = this.mountpoints.get(place.target.url);
    this.mountpoints.delete(place.target.url);
    if (stale) {
      this.readers = this.readers.filter((reader) => reader !== stale.reader);
      await stale.reader.stop();
    }
    // A broadcast taken over from a dead composer finds its mountpoint still there: start afresh.
    await place.client.destroyMountpoint(id, place.secret).catch(() => undefined);
    const ports = await place.client.createMountpoint({
      id,
      description: meeting.name.slice(0, 100),
      secret: place.secret,
      pin: place.pin,
      iface: place.iface,
    });
    const rtp = (port: number) => `rtp://${place.rtpHost}:${port}?pkt_size=1200`;
    const reader = this.reader('WebRTC viewer feed', [
      ...['-map', '0:v:0', '-c:v', 'copy', '-f', 'rtp', '-payload_type', '96', rtp(ports.video)],
      ...['-map', '0:a:0', '-c:a', 'libopus', '-b:a', '96k', '-ar', '48000', '-ac', '2'],
      ...['-f', 'rtp', '-payload_type', '111', rtp(ports.audio)],
    ]);
    this.mountpoints.set(place.target.url, { place, id, reader });
  }

  private startHls() {
    rmSync(this.hlsFolder, { recursive: true, force: true });
    mkdirSync(this.hlsFolder, { recursive: true });
    this.reader('HLS viewer feed', hlsRenditionArgs(this.hlsFolder));
  }

  async stop() {
    const mountpointCheck = this.mountpointCheck;
    this.mountpointCheck = undefined;
    // A check that is recreating the mountpoint finishes first, so that what it made is removed below.
    await mountpointCheck?.stop();
    const readers = this.readers;
    this.readers = [];
    await Promise.all(readers.map((reader) => reader.stop()));
    const mountpoints = [...this.mountpoints.values()];
    this.mountpoints.clear();
    await Promise.all(
      mountpoints.map(({ place, id }) => place.client.destroyMountpoint(id, place.secret).catch(() => undefined)),
    );
    rmSync(this.hlsFolder, { recursive: true, force: true });
  }
}
