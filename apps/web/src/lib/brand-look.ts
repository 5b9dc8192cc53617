import type { NameTagStyle } from '@meetcast/contracts';
import type { CSSProperties } from 'react';

/** Black or white, whichever reads better on the brand's accent colour (WCAG relative luminance). */
export function textColourOn(hex: string) {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

/** The name tag's look for each style of the brand kit (ADR 046). */
export function nameTagLook(style: NameTagStyle, accent: string): { className: string; style: CSSProperties } {
  if (style === 'bold')
    return {
      className: 'rounded-sm px-[0.6em] py-[0.25em] font-bold uppercase tracking-wide',
      style: { backgroundColor: accent, color: textColourOn(accent) },
    };
  if (style === 'minimal')
    return {
      className: 'px-[0.2em] font-semibold text-white',
      style: { textShadow: '0 1px 3px rgb(0 0 0 / 0.9), 0 0 1px rgb(0 0 0)' },
    };
  return {
    className: 'rounded-md bg-black/65 px-[0.5em] py-[0.2em] font-semibold text-white',
    style: { borderInlineStart: `0.25em solid ${accent}` },
  };
}
