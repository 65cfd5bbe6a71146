/** Whether a database error is a unique-key conflict: two requests raced to write the same key. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // SQLite (better-sqlite3) and PostgreSQL (23505 unique_violation).
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
