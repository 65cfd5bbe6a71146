import { sql, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import type { Executor } from './schema.ts';
import type { Store } from './store.ts';

/**
 * The answer of a request with an Idempotency-Key, stored by the very statement that makes its change (PostgreSQL):
 * the statement first locks the key's row if the request still holds its claim, writes only if it does, and seals
 * the answer only if the write landed. Change and answer commit together or not at all, without BEGIN or COMMIT.
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
    if (node.kind !== 'SelectQueryNode') throw new SpeculationAbandoned(`wrote other than by one statement (${node.kind})`);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** A first CTE, `claim`: the key's row, locked for the statement, while the request's claim holds. */
export const claimHeld = (db: Executor, seal: Seal) => () =>
  db
    .selectFrom('idempotency_keys')
    .select('key')
    .where('client_id', '=', seal.clientId)
    .where('key', '=', seal.keyDigest)
    .where('created_at', '=', seal.claimedAt)
    .where('status_code', 'is', null)
    .forUpdate();

/** The last CTE: the answer stored, if `after` (the statement's last write) returned a row. */
export const sealAfter = (db: Executor, seal: Seal, after: string) => () =>
  db
    .updateTable('idempotency_keys')
    .set({ status_code: seal.statusCode, body: seal.body, locked_until: null })
    .where('client_id', '=', seal.clientId)
    .where('key', '=', seal.keyDigest)
    .where('created_at', '=', seal.claimedAt)
    .where(sql<boolean>`exists (select 1 from ${sql.table(after)})`)
    .returning('key');

export const whileClaimHeld = sql<boolean>`exists (select 1 from claim)`;
