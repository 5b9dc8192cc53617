/**
 * PostgreSQL's unique_violation (23505), however the driver wraps it (node-postgres and PGlite set
 * `code`; drizzle puts the driver's error in `cause`). With a constraint name, only that one counts.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    if (seen.has(current)) break;
    seen.add(current);
    const { code, constraint: violated } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505') return constraint === undefined || violated === constraint;
  }
  return false;
}

const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/**
 * The database could not be reached or dropped the connection (not a fault of the request):
 * network errors, PostgreSQL's connection exceptions (class 08) and shutdowns (57P01–57P03).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    if (seen.has(current)) break;
    seen.add(current);
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code))
    )
      return true;
    if (typeof message === 'string' && /^Connection terminated|timeout exceeded when trying to connect/.test(message))
      return true;
  }
  return false;
}
