import { describe, expect, it } from 'vitest';
import { isAdminPath, isPublicPath } from './public-paths';

describe('route guard paths', () => {
  it('lets visitors without a session open exactly the listed paths', () => {
    for (const path of ['/channel', '/login', '/signup', '/confirm-signup', '/forgot-password', '/reset-password']) {
      expect(isPublicPath(path), path).toBe(true);
      expect(isPublicPath(`${path}/`), `${path}/`).toBe(true);
    }
    expect(isPublicPath('/meetcast-names-login')).toBe(true);
  });

  it('treats anything containing /room or /channel/ as public', () => {
    for (const path of ['/room/abc', '/room/abc-def', '/channel/42', '/channel/some-slug/watch']) {
      expect(isPublicPath(path), path).toBe(true);
    }
  });

  it("opens the composer's broadcast layout of any meeting without a session (it holds a grant)", () => {
    // Tests' meetings were named room-…, which hid that other slugs were sent to the sign-in page.
    for (const path of ['/broadcast-layout/pasta-night-3f2a', '/broadcast-layout/abc-defg-hij', '/broadcast-layout']) {
      expect(isPublicPath(path), path).toBe(true);
    }
  });

  it('keeps every other page behind the session', () => {
    for (const path of [
      '/',
      '/contacts',
      '/channels',
      '/channels/42',
      '/calendar',
      '/profile',
      '/admin',
      '/admin/users',
      '/login-help',
      '/signups',
      '/unknown',
    ]) {
      expect(isPublicPath(path), path).toBe(false);
    }
  });

  it('recognizes admin paths', () => {
    expect(isAdminPath('/admin')).toBe(true);
    expect(isAdminPath('/admin/users')).toBe(true);
    expect(isAdminPath('/contacts')).toBe(false);
  });
});
