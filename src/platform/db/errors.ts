/**
 * A PostgreSQL unique violation (SQLSTATE 23505), from either driver; Drizzle wraps driver errors and keeps
 * the original as `cause`.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (
    let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 5;
    current = current.cause as typeof current, depth++
  ) {
    if (current.code === '23505') return true;
  }
  return false;
}
