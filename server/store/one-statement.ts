import { sql, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import type { Executor } from './schema.ts';
import type { Store } from './store.ts';

/**
 * The answer of a request with an Idempotency-Key, stored by the very statement that makes its change (PostgreSQL):
 * change and answer commit together or not at all (`runSealed`).
 */
export interface Seal {
  clientId: string;
  keyDigest: string;
  claimedAt: string;
  statusCode: number;
  body: string;
}

/** A keyed request's one write, held back until its answer is known (`Store.speculation`). */
export interface DeferredWrite {
  work?: ((store: Store) => Promise<boolean>) | undefined;
}

/** The handler did something a deferred write cannot stand for: it runs again the ordinary way, in a unit of work. */
export class SpeculationAbandoned extends Error {
  constructor(what: string) {
    super(`a keyed request's handler ${what}: it runs again in a unit of work`);
  }
}

/** Lets reads through until the one write is deferred; anything else abandons the speculation before it is sent. */
export class ReadsThenOneWrite implements KyselyPlugin {
  constructor(private readonly deferred: DeferredWrite) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (this.deferred.work) throw new SpeculationAbandoned('queried after its write');
    // A SELECT with CTEs may write in them.
    if (node.kind !== 'SelectQueryNode' || node.with) throw new SpeculationAbandoned(`wrote other than by one statement (${node.kind})`);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** A query that CTEs can be added to and rows selected from (a Kysely query creator). */
interface Statement {
  with(name: string, make: () => unknown): Statement;
  selectNoFrom(selection: unknown): { execute(): Promise<{ written: number | string }[]> };
}

/**
 * Runs `query` (whose last write is the CTE `last`) with the answer sealed by a last CTE, if the write landed and the
 * request's claim still holds. When the write landed but the claim is gone (a retry took the key over after the
 * lease while this statement waited for a row), the statement divides by zero: an error, so PostgreSQL undoes all of
 * it. True when both landed; false when nothing was written (the write's guard failed, or the claim was gone; in a
 * transaction, the error aborted it, and its COMMIT rolls it back). No lock is taken on the key before the write, so
 * a takeover never waits for this statement.
 */
export async function runSealed(db: Executor, query: unknown, last: string, seal: Seal): Promise<boolean> {
  const sealed = (query as Statement).with('sealed', () =>
    db
      .updateTable('idempotency_keys')
      .set({ status_code: seal.statusCode, body: seal.body, locked_until: null })
      .where('client_id', '=', seal.clientId)
      .where('key', '=', seal.keyDigest)
      .where('created_at', '=', seal.claimedAt)
      .where('status_code', 'is', null)
      .where(sql<boolean>`exists (select 1 from ${sql.table(last)})`)
      .returning('key'),
  );
  const written = sql`case when exists (select 1 from ${sql.table(last)}) then 1 / (select count(*) from sealed) else 0 end`;
  try {
    const [row] = await sealed.selectNoFrom(written.as('written')).execute();
    return Number(row?.written) === 1;
  } catch (error) {
    if ((error as { code?: string }).code === DIVISION_BY_ZERO) return false;
    throw error;
  }
}

const DIVISION_BY_ZERO = '22012';
