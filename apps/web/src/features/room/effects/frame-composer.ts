import type { BackgroundChoice, SceneId } from './background-choice';
import { drawCovering } from './background-image';
import { drawScene } from './background-scenes';

/** The blur is drawn at this fraction of the frame's size and scaled up: soft, and cheap on a CPU. */
const BLUR_SCALE = 1 / 8;

/**
 * Puts the person over the chosen background, one camera frame at a time, on an OffscreenCanvas in
 * the effect's worker. Without a mask yet (the model still loading) the whole frame is background:
 * blurred or replaced, never the room behind the person the user asked to hide.
 */
export class FrameComposer {
  private readonly output = new OffscreenCanvas(1, 1);
  private readonly context = this.output.getContext('2d')!;
  private readonly small = new OffscreenCanvas(1, 1);
  private readonly smallContext = this.small.getContext('2d')!;
  private scene: { id: SceneId; width: number; height: number; canvas: OffscreenCanvas } | undefined;
  private image: ImageBitmap | undefined;
  private imageCanvas: OffscreenCanvas | undefined;

  setImage(image: ImageBitmap | undefined) {
    this.image?.close();
    this.image = image;
    this.imageCanvas = undefined;
  }

  compose(frame: VideoFrame, choice: BackgroundChoice, mask: OffscreenCanvas | undefined): VideoFrame {
    const width = frame.displayWidth;
    const height = frame.displayHeight;
    if (this.output.width !== width || this.output.height !== height) {
      this.output.width = width;
      this.output.height = height;
    }
    const context = this.context;
    context.imageSmoothingEnabled = true;
    context.globalCompositeOperation = 'copy';
    if (mask) {
      // The mask's alpha, scaled up smoothly (soft edges), keeps the person's pixels only...
      context.drawImage(mask, 0, 0, width, height);
      context.globalCompositeOperation = 'source-in';
      context.drawImage(frame, 0, 0, width, height);
      // ...and the background goes behind them.
      context.globalCompositeOperation = 'destination-over';
    }
    this.drawBackground(frame, choice, width, height);
    context.globalCompositeOperation = 'source-over';
    return new VideoFrame(this.output, { timestamp: frame.timestamp });
  }

  private drawBackground(frame: VideoFrame, choice: BackgroundChoice, width: number, height: number) {
    if (choice.kind === 'scene') {
      this.context.drawImage(this.sceneCanvas(choice.scene, width, height), 0, 0);
      return;
    }
    if (choice.kind === 'image' && this.image) {
      this.context.drawImage(this.imageCanvasSized(this.image, width, height), 0, 0);
      return;
    }
    if (choice.kind === 'none') {
      this.context.drawImage(frame, 0, 0, width, height);
      return;
    }
    // Blur, and the user's picture until it has arrived.
    const smallWidth = Math.max(1, Math.round(width * BLUR_SCALE));
    const smallHeight = Math.max(1, Math.round(height * BLUR_SCALE));
    if (this.small.width !== smallWidth || this.small.height !== smallHeight) {
      this.small.width = smallWidth;
      this.small.height = smallHeight;
    }
    this.smallContext.filter = 'blur(2px)';
    this.smallContext.drawImage(frame, 0, 0, smallWidth, smallHeight);
    this.context.drawImage(this.small, 0, 0, width, height);
  }

  /** The picture is scaled to the frame once per size, not per frame. */
  private imageCanvasSized(image: ImageBitmap, width: number, height: number) {
    if (this.imageCanvas?.width !== width || this.imageCanvas.height !== height) {
      this.imageCanvas = new OffscreenCanvas(width, height);
      drawCovering(this.imageCanvas.getContext('2d')!, image, width, height);
    }
    return this.imageCanvas;
  }

  /** A scene is drawn once per size, not per frame. */
  private sceneCanvas(id: SceneId, width: number, height: number) {
    if (this.scene?.id !== id || this.scene.width !== width || this.scene.height !== height) {
      const canvas = new OffscreenCanvas(width, height);
      drawScene(canvas.getContext('2d')!, id, width, height);
      this.scene = { id, width, height, canvas };
    }
    return this.scene.canvas;
  }
}
