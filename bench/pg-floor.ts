import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { LoadResult } from './load.ts';
import { combineRounds, type Combined } from './rounds.ts';

type Row = Record<string, unknown>;

/** A statement and its parameters, made afresh for each write (new ids). */
type Statement = () => [string, unknown[]];

/**
 * The floor of PostgreSQL writes (issue 31): the same rows as POST /requests and a refund of one sale write, each as
 * one statement, copied from rows the service wrote in the bench's schema, with fresh ids.
 */
export async function floorStatements(
  pool: pg.Pool,
): Promise<{ request: Statement; refund: Statement; saleId: string }> {
  const template = async (query: string) => {
    const { seq: _seq, ...row } = (await pool.query(query)).rows[0] as Row;
    return row;
  };
  const request = await template(
    `SELECT * FROM payment_requests WHERE order_id LIKE 'bench-%' AND email <> '' ORDER BY created_at DESC LIMIT 1`,
  );
  const message = await template(`SELECT * FROM messages ORDER BY seq DESC LIMIT 1`);
  const refund = await template(`SELECT * FROM transactions WHERE kind = 'refund' ORDER BY seq DESC LIMIT 1`);
  const event = await template(`SELECT * FROM events WHERE event_type = 'payment.refund' ORDER BY seq DESC LIMIT 1`);
  return {
    request: () => {
      const order = `floor-${randomUUID()}`;
      const params: unknown[] = [request.merchant_id, order, request.created_at];
      return [
        `WITH o AS (INSERT INTO merchant_orders (merchant_id, order_id, source, created_at) VALUES ($1, $2, 'pay_link', $3) ON CONFLICT DO NOTHING RETURNING order_id), ` +
          `r AS (${insertFrom('payment_requests', { ...request, id: randomUUID(), order_id: order, token_hash: randomUUID(), sales_id: randomUUID() }, 'o', params)}) ` +
          insertFrom('messages', { ...message, id: randomUUID() }, 'r', params),
        params,
      ];
    },
    refund: () => {
      const params: unknown[] = [refund.parent_id];
      return [
        `WITH s AS (UPDATE transactions SET refunded_amount = refunded_amount + 1 WHERE id = $1 RETURNING id), ` +
          `t AS (${insertFrom('transactions', { ...refund, id: randomUUID(), gateway_ref: randomUUID() }, 's', params)}) ` +
          insertFrom('events', { ...event, id: randomUUID() }, 't', params),
        params,
      ];
    },
    saleId: refund.parent_id as string,
  };
}

/** The floor statements sent straight through `pg`, without HTTP, Kysely or the service: 50 loops share a pool of 10, as 50 connections share the service's. */
export async function writeFloors(
  databaseUrl: string,
  seconds: number,
  rounds: number,
): Promise<{ requests: Combined; refunds: Combined }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  try {
    const statements = await floorStatements(pool);
    const measure = async (statement: Statement) => {
      const results: LoadResult[] = [];
      for (let round = 0; round < rounds; round++) results.push(await loop(pool, seconds, statement));
      return combineRounds(results);
    };
    return { requests: await measure(statements.request), refunds: await measure(statements.refund) };
  } finally {
    await pool.end();
  }
}

/** `INSERT INTO table (…) SELECT $…, … FROM after RETURNING id`, its values appended to `params`. */
function insertFrom(table: string, row: Row, after: string, params: unknown[]): string {
  const columns = Object.keys(row);
  const values = columns.map((column) => `$${params.push(row[column])}`);
  return `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM ${after} RETURNING id`;
}

/** 50 loops sending `statement` for `seconds`: statements a second, and the p99 of their latency (the pool's wait included). */
async function loop(pool: pg.Pool, seconds: number, statement: Statement): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const [text, params] = statement();
        await pool.query(text, params).catch(() => errors++);
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / seconds,
    p99Ms: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    non2xx: 0,
    errors,
  };
}
