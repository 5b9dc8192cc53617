/**
 * Sign-in that comes back: a page sends a signed-out visitor to `/login?next=…` and, once signed in,
 * the visitor returns there (for example a channel page's Follow, which then follows).
 */
export function signInPath(returnTo: string): string {
  return `/login?${new URLSearchParams({ next: returnTo }).toString()}`;
}

/** The page to return to after signing in: only a path of this site, never another origin. */
export function returnPathOf(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}
