// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u2028-\u202E\u2066-\u2069]/g;
const USERNAME_MAX = 40;

/** A username from the claims: the first name that survives cleaning, else the address's local part. */
export function usernameFrom(names: string[], email: string): string {
  const candidates = [...names, email.split('@')[0] ?? ''];
  for (const candidate of candidates) {
    const cleaned = [...candidate.replace(CONTROL_CHARACTERS, '').replace(/\s+/g, ' ').trim()]
      .slice(0, USERNAME_MAX)
      .join('')
      .trim();
    if ([...cleaned].length >= 2) return cleaned;
  }
  return 'User';
}
