import { describe, expect, it } from 'vitest';
import { bestColumns, commonAspect } from './stage-grid';

describe('bestColumns', () => {
  it('puts two people side by side on a wide stage and one above the other on a tall one', () => {
    expect(bestColumns(2, 1200, 600, 4 / 3)).toBe(2);
    expect(bestColumns(2, 390, 700, 4 / 3)).toBe(1);
  });

  it('keeps a phone-width stage above an open chat sheet in one row', () => {
    expect(bestColumns(2, 374, 230, 4 / 3)).toBe(2);
  });

  it('makes a near-square grid of nine on a 4:3 stage', () => {
    expect(bestColumns(9, 1200, 900, 4 / 3)).toBe(3);
  });

  it('needs no columns to think about for one tile or an unmeasured stage', () => {
    expect(bestColumns(1, 800, 600, 16 / 9)).toBe(1);
    expect(bestColumns(4, 0, 0, 16 / 9)).toBe(1);
  });
});

describe('commonAspect', () => {
  it('plans for the ratio most videos have, 16:9 when none is known', () => {
    expect(commonAspect([4 / 3, 4 / 3, 16 / 9])).toBeCloseTo(4 / 3, 2);
    expect(commonAspect([])).toBeCloseTo(16 / 9);
  });
});
