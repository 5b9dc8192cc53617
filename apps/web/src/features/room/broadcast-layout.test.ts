import { BROADCAST_LAYOUTS } from '@meetcast/contracts';
import { describe, expect, it } from 'vitest';
import { effectiveLayout, planBroadcastLayout, safeTagAnchor, type LayoutTile, type PlacedTile } from './broadcast-layout';

const cameras = (count: number): LayoutTile[] =>
  Array.from({ length: count }, (_, index) => ({ key: `p${index}:camera`, kind: 'camera' }));
const withScreen = (count: number): LayoutTile[] => [
  ...cameras(count),
  { key: 'p0:screen', kind: 'screen' },
];

const overlaps = (a: PlacedTile, b: PlacedTile) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function expectSound(placed: PlacedTile[], tiles: LayoutTile[], width: number, height: number, band: number) {
  const keys = new Set(tiles.map((tile) => tile.key));
  expect(new Set(placed.map((tile) => tile.key)).size).toBe(placed.length);
  for (const tile of placed) {
    expect(keys.has(tile.key)).toBe(true);
    // No empty cell: every cell is a visible picture.
    expect(tile.width).toBeGreaterThan(40);
    expect(tile.height).toBeGreaterThan(20);
    expect(tile.x).toBeGreaterThanOrEqual(0);
    expect(tile.y).toBeGreaterThanOrEqual(0);
    expect(tile.x + tile.width).toBeLessThanOrEqual(width);
    expect(tile.y + tile.height).toBeLessThanOrEqual(height - band);
    for (const other of placed) if (other !== tile) expect(overlaps(tile, other)).toBe(false);
  }
}

const FRAMES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];

describe('planBroadcastLayout', () => {
  for (const frame of FRAMES)
    for (const band of [0, Math.round(frame.height * 0.18)])
      for (const layout of BROADCAST_LAYOUTS)
        for (let count = 1; count <= 9; count += 1)
          for (const tiles of [cameras(count), withScreen(count)])
            it(`${layout}, ${tiles.length} tiles (${tiles.at(-1)!.kind} last), ${frame.height}p, band ${band}: inside, no overlap, no empty cell`, () => {
              const placed = planBroadcastLayout({
                tiles,
                layout,
                featuredKey: 'p1:camera',
                bottomBand: band,
                ...frame,
              });
              expectSound(placed, tiles, frame.width, frame.height, band);
              const shown = effectiveLayout(layout, tiles);
              // Everyone is on the picture except in solo, which shows exactly one.
              expect(placed).toHaveLength(shown === 'solo' ? 1 : tiles.length);
            });

  it('fills the frame without holes in the grid: the cells and gaps cover the usable area', () => {
    for (let count = 1; count <= 9; count += 1) {
      const placed = planBroadcastLayout({
        tiles: cameras(count),
        layout: 'grid',
        featuredKey: undefined,
        width: 1280,
        height: 720,
        bottomBand: 0,
      });
      const covered = placed.reduce((sum, tile) => sum + tile.width * tile.height, 0);
      // Only the 8-px gaps are not picture: well over 90 % of the frame.
      expect(covered / (1280 * 720)).toBeGreaterThan(0.9);
      expect(placed.every((tile) => tile.fit === 'cover')).toBe(true);
    }
  });

  it('puts three people as two on top and one below, as wide as the frame', () => {
    const placed = planBroadcastLayout({
      tiles: cameras(3),
      layout: 'grid',
      featuredKey: undefined,
      width: 1280,
      height: 720,
      bottomBand: 0,
    });
    const [first, second, third] = placed;
    expect(first!.y).toBe(second!.y);
    expect(third!.y).toBeGreaterThan(first!.y + first!.height);
    expect(third!.x).toBe(first!.x);
    expect(third!.x + third!.width).toBe(second!.x + second!.width);
  });

  it('pushes the tiles above the band kept for the banner and ticker', () => {
    const placed = planBroadcastLayout({
      tiles: cameras(4),
      layout: 'grid',
      featuredKey: undefined,
      width: 1280,
      height: 720,
      bottomBand: 130,
    });
    expect(Math.max(...placed.map((tile) => tile.y + tile.height))).toBeLessThanOrEqual(590);
  });

  it('gives a shared screen the stage by itself unless another layout was chosen', () => {
    const tiles = withScreen(3);
    const frame = { width: 1280, height: 720, bottomBand: 0, featuredKey: 'p2:camera' };
    const auto = planBroadcastLayout({ tiles, layout: 'auto', ...frame });
    expect(auto).toEqual([expect.objectContaining({ key: 'p0:screen', fit: 'contain', width: 1264, height: 704 })]);
    const beside = planBroadcastLayout({ tiles, layout: 'screen_share', ...frame });
    expect(beside[0]!.key).toBe('p0:screen');
    expect(beside.slice(1).every((tile) => tile.x > beside[0]!.x + beside[0]!.width)).toBe(true);
    expect(planBroadcastLayout({ tiles, layout: 'grid', ...frame })).toHaveLength(4);
  });

  it('features the latest speaker in solo and spotlight when nobody shares a screen', () => {
    const frame = { width: 1280, height: 720, bottomBand: 0 };
    const solo = planBroadcastLayout({ tiles: cameras(4), layout: 'solo', featuredKey: 'p2:camera', ...frame });
    expect(solo.map((tile) => tile.key)).toEqual(['p2:camera']);
    const spotlight = planBroadcastLayout({ tiles: cameras(4), layout: 'spotlight', featuredKey: 'p3:camera', ...frame });
    expect(spotlight[0]).toMatchObject({ key: 'p3:camera' });
    expect(spotlight[0]!.width * spotlight[0]!.height).toBeGreaterThan(4 * spotlight[1]!.width * spotlight[1]!.height);
  });
});

describe('safeTagAnchor', () => {
  it('keeps a name tag inside the title-safe area of the frame and above the band', () => {
    const anchor = safeTagAnchor({ x: 8, y: 8, width: 632, height: 704 }, 1280, 720, 0);
    expect(anchor.start).toBe(64);
    expect(anchor.bottom).toBeLessThanOrEqual(720 - 36);
    const banded = safeTagAnchor({ x: 8, y: 8, width: 632, height: 570 }, 1280, 720, 130);
    expect(banded.bottom).toBeLessThanOrEqual(590);
  });
});
