import type { SceneId } from './background-choice';

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/**
 * Our own background pictures, drawn rather than shipped as image files: nothing to download or
 * license, a few hundred bytes of code, and sharp at any camera size. The same drawing makes the
 * picker's thumbnails and the frames' backgrounds (in the effect's worker).
 */
export function drawScene(context: Context2D, scene: SceneId, width: number, height: number) {
  const draw = { sunset: drawSunset, lagoon: drawLagoon, meadow: drawMeadow }[scene];
  context.save();
  draw(context, width, height);
  context.restore();
}

function verticalGradient(context: Context2D, height: number, stops: [number, string][]) {
  const gradient = context.createLinearGradient(0, 0, 0, height);
  for (const [offset, colour] of stops) gradient.addColorStop(offset, colour);
  return gradient;
}

/** A hill line across the picture: `crest` is its height as a share of the picture from the top. */
function hill(context: Context2D, width: number, height: number, crest: number, waves: number, colour: string) {
  context.fillStyle = colour;
  context.beginPath();
  context.moveTo(0, height);
  for (let x = 0; x <= width; x += width / 48) {
    const y = height * (crest + 0.04 * Math.sin((x / width) * Math.PI * waves));
    context.lineTo(x, y);
  }
  context.lineTo(width, height);
  context.closePath();
  context.fill();
}

function drawSunset(context: Context2D, width: number, height: number) {
  context.fillStyle = verticalGradient(context, height, [
    [0, '#ff7a45'],
    [0.55, '#ffb36b'],
    [1, '#ffd9a0'],
  ]);
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#ffe66d';
  context.beginPath();
  context.arc(width * 0.7, height * 0.55, Math.min(width, height) * 0.16, 0, Math.PI * 2);
  context.fill();
  hill(context, width, height, 0.68, 3, '#8a3b6b');
  hill(context, width, height, 0.8, 5, '#5b2150');
}

function drawLagoon(context: Context2D, width: number, height: number) {
  context.fillStyle = verticalGradient(context, height, [
    [0, '#5ec8f2'],
    [0.5, '#a8e4f7'],
    [0.52, '#1d8fc4'],
    [1, '#0b5d8a'],
  ]);
  context.fillRect(0, 0, width, height);
  context.strokeStyle = 'rgba(255, 255, 255, 0.35)';
  context.lineWidth = Math.max(1, height / 120);
  for (let row = 0; row < 5; row += 1) {
    const y = height * (0.6 + row * 0.08);
    context.beginPath();
    for (let x = 0; x <= width; x += width / 32)
      context.lineTo(x, y + Math.sin(x / (width / 12) + row) * height * 0.01);
    context.stroke();
  }
}

function drawMeadow(context: Context2D, width: number, height: number) {
  context.fillStyle = verticalGradient(context, height, [
    [0, '#cdeefd'],
    [1, '#f2fbff'],
  ]);
  context.fillRect(0, 0, width, height);
  hill(context, width, height, 0.55, 2, '#7cc47f');
  hill(context, width, height, 0.7, 3, '#3f9a4f');
  hill(context, width, height, 0.85, 4, '#2b7a3d');
}
