import { loadRnnoise, RnnoiseWorkletNode } from '@sapphi-red/web-noise-suppressor';
import simdWasmUrl from '@sapphi-red/web-noise-suppressor/rnnoise_simd.wasm?url';
import wasmUrl from '@sapphi-red/web-noise-suppressor/rnnoise.wasm?url';
import workletUrl from '@sapphi-red/web-noise-suppressor/rnnoiseWorklet.js?url';
import { resumeWhenAllowed } from '../media/local-media';

// RNNoise works on 48-kHz frames; one context at that rate spares the browser a resampler.
const SAMPLE_RATE = 48_000;
let model: Promise<ArrayBuffer> | undefined;

/**
 * The microphone through RNNoise (a recurrent network trained on speech and noise, shipped as
 * WebAssembly in @sapphi-red/web-noise-suppressor), run in an AudioWorklet on the browser's audio
 * thread: `output` is the track to publish. The microphone track stays the caller's: muting it
 * (enabled = false) silences the output too.
 */
export class NoiseSuppressor {
  private constructor(
    private readonly context: AudioContext,
    private readonly node: RnnoiseWorkletNode,
    readonly output: MediaStreamTrack,
  ) {}

  static async start(microphone: MediaStreamTrack): Promise<NoiseSuppressor> {
    model ??= loadRnnoise({ url: wasmUrl, simdUrl: simdWasmUrl });
    const context = new AudioContext({ sampleRate: SAMPLE_RATE });
    try {
      const [wasmBinary] = await Promise.all([model, context.audioWorklet.addModule(workletUrl)]);
      const node = new RnnoiseWorkletNode(context, { wasmBinary, maxChannels: 1 });
      const destination = context.createMediaStreamDestination();
      context.createMediaStreamSource(new MediaStream([microphone])).connect(node).connect(destination);
      const [output] = destination.stream.getAudioTracks();
      if (!output) throw new Error('no processed track');
      resumeWhenAllowed(context);
      return new NoiseSuppressor(context, node, output);
    } catch (error) {
      model = undefined;
      void context.close();
      throw error;
    }
  }

  close() {
    this.output.stop();
    this.node.destroy();
    void this.context.close();
  }
}
