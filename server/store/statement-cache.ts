import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every statement on every query; preparing costs more than running a
 * small query. This keeps the most recent prepared statements, keyed by their SQL text.
 */
export function withStatementCache(database: SQLiteDatabase, size = 256): SqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare: (sql: string) => {
      let statement = cache.get(sql);
      if (statement) {
        // Map keeps insertion order: re-inserting marks it most recently used.
        cache.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}
