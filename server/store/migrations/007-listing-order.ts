import type { Kysely } from 'kysely';

/**
 * GET /merchant lists a client's merchants newest first, ties broken by id. With the id in the index, in the same
 * directions, both databases read the rows in that order instead of sorting them on every call.
 */
export function listingOrder() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('merchants_by_client').execute();
      await db.schema
        .createIndex('merchants_by_client')
        .on('merchants')
        .columns(['client_id', 'created_at desc', 'id'])
        .execute();
    },
  };
}
