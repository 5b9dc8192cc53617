import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { usernameFrom } from './username.js';

describe('usernameFrom', () => {
  it('takes the first usable name from the claims', () => {
    expect(usernameFrom(['  Ada   Lovelace ', 'ada'], 'ada@example.com')).toBe('Ada Lovelace');
    expect(usernameFrom(['x', '\u0000\u200e', 'grace'], 'g@example.com')).toBe('grace');
    expect(usernameFrom([], 'linus.t@example.com')).toBe('linus.t');
    expect(usernameFrom([], 'a@example.com')).toBe('User');
  });

  it('cuts long names at 40 characters without splitting a character', () => {
    expect(usernameFrom(['😀'.repeat(50)], 'x@example.com')).toBe('😀'.repeat(40));
  });

  it('always answers a clean name of 2 to 40 characters', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), fc.string(), (names, local) => {
        const name = usernameFrom(names, `${local}@example.com`);
        expect([...name].length).toBeGreaterThanOrEqual(2);
        expect([...name].length).toBeLessThanOrEqual(40);
        expect(name).toBe(name.trim());
        // eslint-disable-next-line no-control-regex
        expect(name).not.toMatch(/[\u0000-\u001F\u007F]/);
      }),
    );
  });
});
