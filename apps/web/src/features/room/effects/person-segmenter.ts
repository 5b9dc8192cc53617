import { loadAndCompile, loadLiteRt, Tensor, type CompiledModel } from '@litertjs/core';

/**
 * MediaPipe's selfie segmentation model (the landscape one, 256×144, from the
 * @mediapipe/selfie_segmentation package) run by LiteRT.js on the CPU (XNNPACK in WebAssembly).
 * MediaPipe's own loader in that package runs the model through WebGL instead, which took
 * ~350 ms a frame where there is no GPU (ADR 017). Runs in the effect's worker.
 */
export const MODEL_WIDTH = 256;
export const MODEL_HEIGHT = 144;
const MODEL_FILE = 'selfie_segmentation_landscape.tflite';

export class PersonSegmenter {
  private readonly input = new OffscreenCanvas(MODEL_WIDTH, MODEL_HEIGHT);
  private readonly inputContext = this.input.getContext('2d', { willReadFrequently: true })!;
  private readonly pixels = new Float32Array(MODEL_WIDTH * MODEL_HEIGHT * 3);
  /** The person's outline as an alpha channel, the size of the model's output. */
  readonly mask = new OffscreenCanvas(MODEL_WIDTH, MODEL_HEIGHT);
  private readonly maskContext = this.mask.getContext('2d')!;
  private readonly maskImage = new ImageData(MODEL_WIDTH, MODEL_HEIGHT);

  private constructor(private readonly model: CompiledModel) {}

  /** `assetsUrl`: where the build copied the model and LiteRT's WebAssembly (vite.config.ts). */
  static async load(assetsUrl: string): Promise<PersonSegmenter> {
    // LiteRT's Emscripten glue looks for its .wasm beside the script that loaded it, which in a
    // worker is the worker's own file under /assets/; its loader hands `self.Module` to the glue.
    (self as unknown as { Module?: { locateFile(file: string): string } }).Module = {
      locateFile: (file) => `${assetsUrl}${file}`,
    };
    await loadLiteRt(assetsUrl);
    return new PersonSegmenter(await loadAndCompile(`${assetsUrl}${MODEL_FILE}`, { accelerator: 'wasm' }));
  }

  /** Finds the person in `frame`; the answer is in `mask` (opaque where the person is). */
  async segment(frame: VideoFrame) {
    this.inputContext.drawImage(frame, 0, 0, MODEL_WIDTH, MODEL_HEIGHT);
    const rgba = this.inputContext.getImageData(0, 0, MODEL_WIDTH, MODEL_HEIGHT).data;
    // The model takes RGB in 0..1.
    for (let from = 0, to = 0; from < rgba.length; from += 4, to += 3) {
      this.pixels[to] = rgba[from]! / 255;
      this.pixels[to + 1] = rgba[from + 1]! / 255;
      this.pixels[to + 2] = rgba[from + 2]! / 255;
    }
    const input = new Tensor(this.pixels, [1, MODEL_HEIGHT, MODEL_WIDTH, 3]);
    const outputs = await this.model.run(input).finally(() => input.delete());
    try {
      // One value per pixel: how likely it belongs to the person (the model ends in a sigmoid).
      const confidence = outputs[0]!.toTypedArray();
      const alpha = this.maskImage.data;
      for (let index = 0; index < confidence.length; index += 1) {
        alpha[index * 4 + 3] = Math.round(Math.min(1, Math.max(0, Number(confidence[index]))) * 255);
      }
      this.maskContext.putImageData(this.maskImage, 0, 0);
    } finally {
      for (const output of outputs) output.delete();
    }
  }

  close() {
    this.model.delete();
  }
}
