import { offer, type PluginHandle } from './janus-api';

/**
 * A screen share: a publisher handle of its own in the room, joined as `screen`, that offers the
 * captured track once Janus says it joined.
 */
export class ScreenShare {
  private handle: PluginHandle | undefined;

  constructor(private readonly track: MediaStreamTrack) {}

  async start(attach: () => Promise<PluginHandle>) {
    this.handle = await attach();
    this.handle.send({ message: { request: 'join', ptype: 'publisher', display: 'screen' } });
  }

  /** The share's handle joined the room: send the screen. */
  async publish(handle: PluginHandle) {
    const jsep = await offer(handle, {
      tracks: [{ type: 'screen', capture: this.track, recv: false, dontStop: true }],
    });
    handle.send({ message: { request: 'configure', audio: false, video: true }, jsep });
  }

  /** The session was claimed back after a cut (ADR 032): the share's connection restarts ICE. */
  async restartIce() {
    const handle = this.handle;
    if (!handle) return;
    const jsep = await offer(handle, { iceRestart: true });
    handle.send({ message: { request: 'configure' }, jsep });
  }

  stop() {
    const handle = this.handle;
    this.handle = undefined;
    if (!handle) return;
    handle.send({ message: { request: 'leave' } });
    handle.detach();
  }
}
