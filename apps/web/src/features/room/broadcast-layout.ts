import type { BroadcastLayout } from '@meetcast/contracts';

/**
 * Where each tile of the broadcast picture goes (ADR 039): a pure function of who is shown, the
 * layout the host chose, the frame's size and the band kept free at the bottom for the banner and
 * ticker. The meeting room's own grid (stage-grid.ts) is not this: a broadcast fills its frame.
 */

export interface LayoutTile {
  key: string;
  kind: 'camera' | 'screen';
}

export interface LayoutInput {
  tiles: LayoutTile[];
  layout: BroadcastLayout;
  /** The tile to feature in solo and spotlight when there is no shared screen: the latest speaker. */
  featuredKey: string | undefined;
  width: number;
  height: number;
  /** Pixels at the bottom kept for the banner and the ticker: tiles are pushed up, never covered. */
  bottomBand: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedTile extends Rect {
  key: string;
  /** A camera is cropped to fill its cell; a shared screen is shown whole (text must stay readable). */
  fit: 'cover' | 'contain';
}

/** Space between tiles and around the picture, as a share of the frame's height (8 px at 720p). */
const GAP_SHARE = 8 / 720;
/** The spotlight's strip of others, as a share of the usable height. */
const STRIP_SHARE = 0.2;
/** The screen-share layout's column of cameras, as a share of the frame's width. */
const COLUMN_SHARE = 0.24;
const CAMERA_ASPECT = 16 / 9;

/** The layout actually drawn: a chosen layout that needs a shared screen falls back without one. */
export function effectiveLayout(layout: BroadcastLayout, tiles: LayoutTile[]): Exclude<BroadcastLayout, 'auto'> {
  const hasScreen = tiles.some((tile) => tile.kind === 'screen');
  if (layout === 'auto') return hasScreen ? 'solo' : 'grid';
  if (layout === 'screen_share' && (!hasScreen || tiles.length === 1)) return hasScreen ? 'solo' : 'grid';
  return layout;
}

/**
 * The rectangles of the tiles shown, in the order given; a tile the layout leaves out (solo shows
 * one) is not in the answer. Integer pixels, no two overlapping, all inside the frame above the band.
 */
export function planBroadcastLayout(input: LayoutInput): PlacedTile[] {
  const { tiles, width, height } = input;
  if (tiles.length === 0 || width <= 0 || height <= 0) return [];
  const gap = Math.max(2, Math.round(height * GAP_SHARE));
  const area: Rect = {
    x: gap,
    y: gap,
    width: width - 2 * gap,
    height: Math.max(gap, height - Math.max(0, input.bottomBand) - 2 * gap),
  };
  const featured = featuredTile(tiles, input.featuredKey);
  const others = tiles.filter((tile) => tile !== featured);
  switch (effectiveLayout(input.layout, tiles)) {
    case 'solo':
      return [place(featured, area)];
    case 'side_by_side':
      return rowsOf(tiles, [tiles.length], area, gap);
    case 'spotlight':
      return spotlight(featured, others, area, gap);
    case 'screen_share':
      return screenBeside(featured, others, area, gap);
    default:
      return rowsOf(tiles, gridRows(tiles.length, area, gap), area, gap);
  }
}

/** A shared screen first (the one shown by itself or large), else the featured speaker, else the first tile. */
function featuredTile(tiles: LayoutTile[], featuredKey: string | undefined): LayoutTile {
  return (
    tiles.find((tile) => tile.kind === 'screen') ?? tiles.find((tile) => tile.key === featuredKey) ?? tiles[0]!
  );
}

function place(tile: LayoutTile, rect: Rect): PlacedTile {
  return {
    key: tile.key,
    fit: tile.kind === 'screen' ? 'contain' : 'cover',
    x: Math.round(rect.x),
    y: Math.round(rect.y),
    width: Math.round(rect.x + rect.width) - Math.round(rect.x),
    height: Math.round(rect.y + rect.height) - Math.round(rect.y),
  };
}

/**
 * How many tiles each row of a hole-free grid holds: every row as wide as the frame, its cells
 * sharing it, rows sharing the height. The row count whose cells are closest to a camera's 16:9
 * (the least cropped face) wins; earlier rows hold the extra tile, so 3 is two on top and one below.
 */
export function gridRows(count: number, area: Rect, gap: number): number[] {
  let best: number[] = [count];
  let bestScore = Infinity;
  for (let rows = 1; rows <= count; rows += 1) {
    const counts = Array.from({ length: rows }, (_, row) => Math.floor(count / rows) + (row < count % rows ? 1 : 0));
    const cellHeight = (area.height - gap * (rows - 1)) / rows;
    const score = Math.max(
      ...counts.map((inRow) => {
        const cellWidth = (area.width - gap * (inRow - 1)) / inRow;
        return Math.abs(Math.log(cellWidth / cellHeight / CAMERA_ASPECT));
      }),
    );
    // Ties go to fewer rows: two people side by side rather than one above the other.
    if (score < bestScore - 1e-6) {
      best = counts;
      bestScore = score;
    }
  }
  return best;
}

/** Rows of equal height filling `area`, each row's cells sharing its whole width. */
function rowsOf(tiles: LayoutTile[], counts: number[], area: Rect, gap: number): PlacedTile[] {
  const placed: PlacedTile[] = [];
  const rowHeight = (area.height - gap * (counts.length - 1)) / counts.length;
  let next = 0;
  counts.forEach((inRow, row) => {
    const cellWidth = (area.width - gap * (inRow - 1)) / inRow;
    for (let column = 0; column < inRow; column += 1) {
      const tile = tiles[next++]!;
      placed.push(
        place(tile, {
          x: area.x + column * (cellWidth + gap),
          y: area.y + row * (rowHeight + gap),
          width: cellWidth,
          height: rowHeight,
        }),
      );
    }
  });
  return placed;
}

/** Small 16:9 cells side by side, centred in `strip` (shrunk to fit when many). */
function stripCells(tiles: LayoutTile[], strip: Rect, gap: number, direction: 'row' | 'column'): PlacedTile[] {
  const count = tiles.length;
  let cellWidth: number;
  let cellHeight: number;
  if (direction === 'row') {
    cellHeight = strip.height;
    cellWidth = Math.min(cellHeight * CAMERA_ASPECT, (strip.width - gap * (count - 1)) / count);
  } else {
    cellWidth = strip.width;
    cellHeight = Math.min(cellWidth / CAMERA_ASPECT, (strip.height - gap * (count - 1)) / count);
  }
  const along = direction === 'row' ? strip.width : strip.height;
  const used = (direction === 'row' ? cellWidth : cellHeight) * count + gap * (count - 1);
  const start = (along - used) / 2;
  return tiles.map((tile, index) => {
    const offset = start + index * ((direction === 'row' ? cellWidth : cellHeight) + gap);
    return place(
      tile,
      direction === 'row'
        ? { x: strip.x + offset, y: strip.y, width: cellWidth, height: cellHeight }
        : { x: strip.x, y: strip.y + offset, width: cellWidth, height: cellHeight },
    );
  });
}

/** One large tile, the others small in a strip below it. */
function spotlight(featured: LayoutTile, others: LayoutTile[], area: Rect, gap: number): PlacedTile[] {
  if (others.length === 0) return [place(featured, area)];
  const stripHeight = Math.round(area.height * STRIP_SHARE);
  const main: Rect = { ...area, height: area.height - stripHeight - gap };
  const strip: Rect = { x: area.x, y: main.y + main.height + gap, width: area.width, height: stripHeight };
  return [place(featured, main), ...stripCells(others, strip, gap, 'row')];
}

/** The shared screen large, the cameras in a column beside it (at the end side of the frame). */
function screenBeside(screen: LayoutTile, cameras: LayoutTile[], area: Rect, gap: number): PlacedTile[] {
  const columnWidth = Math.round(area.width * COLUMN_SHARE);
  const main: Rect = { ...area, width: area.width - columnWidth - gap };
  const column: Rect = { x: main.x + main.width + gap, y: area.y, width: columnWidth, height: area.height };
  return [place(screen, main), ...stripCells(cameras, column, gap, 'column')];
}

/** Where a name tag may sit: inside the tile and inside the frame's title-safe area (5 % in). */
export function safeTagAnchor(tile: Rect, width: number, height: number, bottomBand: number) {
  const inset = Math.round(height * 0.02);
  const safeX = Math.round(width * 0.05);
  const safeBottom = height - Math.max(bottomBand, Math.round(height * 0.05));
  return {
    start: Math.max(tile.x + inset, safeX),
    bottom: Math.min(tile.y + tile.height - inset, safeBottom),
  };
}
