import { describe, expect, it } from 'vitest';
import { createCallbackGuard } from './callback-guard';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('sign-in callback guard', () => {
  it('sends a code once, however often the page mounts', () => {
    const decide = createCallbackGuard(memoryStorage);
    expect(decide('code-1')).toBe('send');
    expect(decide('code-1')).toBe('wait');
    // The second mount finds the address already cleaned: it waits for the first request.
    expect(decide('')).toBe('wait');
  });

  it('leaves when the address carries nothing to send', () => {
    expect(createCallbackGuard(memoryStorage)('')).toBe('leave');
  });

  it('does not send a code again after a reload', () => {
    const storage = memoryStorage();
    expect(createCallbackGuard(() => storage)('code-2')).toBe('send');
    const afterReload = createCallbackGuard(() => storage);
    expect(afterReload('code-2')).toBe('leave');
    expect(afterReload('code-3')).toBe('send');
  });

  it('still sends once when storage is unavailable', () => {
    const decide = createCallbackGuard(() => {
      throw new Error('denied');
    });
    expect(decide('code-4')).toBe('send');
    expect(decide('code-4')).toBe('wait');
  });
});
