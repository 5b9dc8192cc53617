import { cameraTrackOptions, offer, switchAudioTrack, switchVideoTrack, type PluginHandle } from './janus-api';
import { debug, type LocalTracks } from './media-types';

/**
 * Our camera and microphone on the camera's publisher handle: the first offer (or, before any local
 * track is ready, the wait for one), then the tracks switched in place.
 */
export class CameraPublication {
  /** When our camera last started sending: the watchdog counts from there. */
  sendingSince: number | undefined;
  /** The handle joined before any local track was ready: it publishes when one arrives. */
  private waitingHandle: PluginHandle | undefined;
  /**
   * The offer being made (settled either way). A switch meanwhile finds no negotiated transceiver and
   * adds one, a second offer that Janus answers out of order: the call's first render switches to the
   * track being published while the click's media offers it (ADR 016).
   */
  private offering: Promise<void> | undefined;

  constructor(
    private readonly local: () => LocalTracks,
    /** The camera's publisher handle now (a republish or a rejoin replaces it). */
    private readonly publisher: () => PluginHandle | undefined,
    private readonly onFailure: () => void,
  ) {}

  async publish(handle: PluginHandle) {
    const audio = this.local().audio();
    const video = this.local().video();
    const tracks = cameraTrackOptions(audio, video);
    if (tracks.length === 0) {
      // Joined before the camera and microphone were ready (a reload goes straight back into the
      // call, and a remembered background effect takes a moment to start): publish once one is.
      this.waitingHandle = handle;
      return;
    }
    this.waitingHandle = undefined;
    debug('publishing camera', tracks.length);
    const offered = offer(handle, { tracks });
    this.offering = offered.then(() => undefined).catch(() => undefined);
    const jsep = await offered.catch((error: unknown) => {
      debug('offer failed', String(error));
      throw error;
    });
    debug('offer ready');
    handle.send({
      message: { request: 'configure', audio: Boolean(audio), video: Boolean(video) },
      jsep,
      error: (error: string) => debug('configure refused', error),
    });
    this.sendingSince = Date.now();
  }

  /** The camera was turned on or off, or switched: replace (or add) the sending track. */
  async setVideoTrack(track: MediaStreamTrack | undefined) {
    if (track && this.publishIfWaiting()) return;
    await this.offering;
    const handle = this.publisher();
    if (handle) await switchVideoTrack(handle, track);
    // Sending starts over: the watchdog counts from now.
    if (track && this.sendingSince !== undefined) this.sendingSince = Date.now();
  }

  async setAudioTrack(track: MediaStreamTrack) {
    if (this.publishIfWaiting()) return;
    await this.offering;
    await switchAudioTrack(this.publisher(), track);
  }

  /** The handle is gone (a republish, a rejoin, the end): nothing is sending or waiting. */
  reset() {
    this.sendingSince = undefined;
    this.waitingHandle = undefined;
    this.offering = undefined;
  }

  /** A local track arrived while the handle waited for one: publish now. */
  private publishIfWaiting() {
    const handle = this.waitingHandle;
    if (!handle || handle !== this.publisher()) return false;
    this.waitingHandle = undefined;
    void this.publish(handle).catch(this.onFailure);
    return true;
  }
}
