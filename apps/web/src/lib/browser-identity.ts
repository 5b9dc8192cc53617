const KEY = 'meetcastBrowserId';

/**
 * A random identity this browser keeps for itself (no account needed). Rooms remember a guest the
 * host removed by it, so coming back under another name does not get them in again.
 */
export function browserIdentity(): string {
  const known = localStorage.getItem(KEY);
  if (known && /^[\w-]{22,64}$/.test(known)) return known;
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const fresh = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  localStorage.setItem(KEY, fresh);
  return fresh;
}
