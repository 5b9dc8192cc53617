/**
 * A light WebRTC viewer of a broadcast, for counting many on one machine: werift (WebRTC in Node,
 * no decoding) speaking to our viewer proxy exactly as the channel page's janus-watch.ts does:
 * get-broadcast-viewer.php for a grant, then /janus-watch?grant=… with create, attach
 * janus.plugin.streaming, watch, the answer with start, trickled candidates both ways and
 * keepalives. It only counts the RTP packets it receives per kind.
 */
import { useH264, useOPUS, type RTCPeerConnection } from 'werift';
import { LightJanusSocket, loopbackPeer } from '@meetcast/testkit/light-janus-socket';

interface ViewerGrant {
  webrtc: { url: string; grant: string } | null;
}

export class LightViewer {
  /** RTP packets received, per kind, and the video's bytes (payload and RTP header). */
  readonly packets = { video: 0, audio: 0, videoBytes: 0 };
  /** When the first video RTP packet arrived, and when the viewer started to connect. */
  firstVideoAt: number | undefined;
  readonly startedAt = Date.now();
  private janus: LightJanusSocket | undefined;

  private constructor(readonly peer: RTCPeerConnection) {}

  /** Connects one viewer: resolves once Janus has its answer (`start`); media follows by itself. */
  static async open(baseUrl: string, meetId: string): Promise<LightViewer> {
    const answer = await fetch(`${baseUrl}/api/get-broadcast-viewer.php`, {
      method: 'POST',
      body: new URLSearchParams({ meetId }),
    });
    const view = ((await answer.json()) as { data: { data: ViewerGrant } }).data.data;
    if (!view.webrtc) throw new Error('the broadcast offers no WebRTC (not live?)');
    // The encode's H.264 as the mountpoint offers it, and its Opus.
    const peer = loopbackPeer({
      video: [useH264({ parameters: 'profile-level-id=42e01f;packetization-mode=1' })],
      audio: [useOPUS()],
    });
    const viewer = new LightViewer(peer);
    viewer.countPackets();
    const url = `${baseUrl.replace(/^http/, 'ws')}${view.webrtc.url}?grant=${encodeURIComponent(view.webrtc.grant)}`;
    viewer.janus = await LightJanusSocket.open(url, peer, 'janus.plugin.streaming');
    const offer = await viewer.janus.message({ request: 'watch' });
    if (!offer.jsep) throw new Error('no offer from the mountpoint');
    await peer.setRemoteDescription(offer.jsep);
    await peer.setLocalDescription(await peer.createAnswer());
    await viewer.janus.message({ request: 'start' }, { type: 'answer', sdp: peer.localDescription!.sdp });
    return viewer;
  }

  private countPackets() {
    this.peer.onTrack.subscribe((track) => {
      const kind = track.kind === 'video' ? 'video' : 'audio';
      track.onReceiveRtp.subscribe((rtp) => {
        this.packets[kind] += 1;
        if (kind !== 'video') return;
        this.packets.videoBytes += rtp.payload.length + 12;
        this.firstVideoAt ??= Date.now();
      });
    });
  }

  async close() {
    this.janus?.close();
    await this.peer.close();
  }
}
