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
