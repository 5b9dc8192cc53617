import { describe, expect, it } from 'vitest';
import { nameTagLook, textColourOn } from './brand-look';

describe('brand look', () => {
  it('writes black on light accents and white on dark ones', () => {
    expect(textColourOn('#ffff00')).toBe('#000000');
    expect(textColourOn('#ffffff')).toBe('#000000');
    expect(textColourOn('#2563eb')).toBe('#ffffff');
    expect(textColourOn('#000000')).toBe('#ffffff');
    expect(textColourOn('#ff5500')).toBe('#000000');
  });

  it('gives the bold tag the accent and a readable text, the others their own backgrounds', () => {
    expect(nameTagLook('bold', '#ffff00').style).toMatchObject({ backgroundColor: '#ffff00', color: '#000000' });
    expect(nameTagLook('classic', '#123456').className).toContain('bg-black/65');
    expect(nameTagLook('minimal', '#123456').style.backgroundColor).toBeUndefined();
  });
});
