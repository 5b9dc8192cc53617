/**
 * How many columns give every video in the grid the largest picture: `count` tiles whose videos
 * have the `aspect` ratio (width / height), shown whole (letterboxed) in a `width` × `height` stage
 * with `gap` pixels between tiles. A wide stage gets a row, a tall one (a phone) a column.
 */
export function bestColumns(count: number, width: number, height: number, aspect: number, gap = 8): number {
  if (count <= 1 || width <= 0 || height <= 0) return 1;
  let best = 1;
  let bestWidth = 0;
  for (let columns = 1; columns <= count; columns += 1) {
    const rows = Math.ceil(count / columns);
    const cellWidth = (width - gap * (columns - 1)) / columns;
    const cellHeight = (height - gap * (rows - 1)) / rows;
    if (cellWidth <= 0 || cellHeight <= 0) continue;
    // The video's shown width decides its area, since every video has the same ratio.
    const videoWidth = Math.min(cellWidth, cellHeight * aspect);
    // Ties go to fewer columns: fuller rows, fewer empty cells.
    if (videoWidth > bestWidth + 0.5) {
      best = columns;
      bestWidth = videoWidth;
    }
  }
  return best;
}

/** The ratio the grid plans for: the most common one among the videos shown, else 16:9. */
export function commonAspect(ratios: number[]): number {
  if (ratios.length === 0) return 16 / 9;
  const counts = new Map<number, number>();
  for (const ratio of ratios) {
    const rounded = Math.round(ratio * 100) / 100;
    counts.set(rounded, (counts.get(rounded) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
}
