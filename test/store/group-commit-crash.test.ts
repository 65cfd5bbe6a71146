import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { processPartner, startServiceProcess, type ServiceProcess } from '../support/process.ts';
import { send } from '../support/http.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { storageEnv } from '../support/storage-env.ts';
import { validApplication } from '../support/fixtures.ts';

const { env: credentials, auth } = processPartner('burst');
const BURST = 200;

const api = (service: ServiceProcess, path: string, json: unknown) =>
  send(service.baseUrl, 'POST', `/api/v1${path}`, { auth, json });

/** What the database holds for the merchant's pay links, read straight from it after the process died. */
interface Kept {
  orders: string[];
  requests: string[];
  /** The order id each e-mail names. */
  messages: string[];
}

async function keptRows(database: TestDatabase, env: Record<string, string>, merchantId: string): Promise<Kept> {
  const queries = {
    orders: `SELECT order_id AS v FROM merchant_orders WHERE merchant_id = $1 AND source = 'pay_link'`,
    requests: `SELECT order_id AS v FROM payment_requests WHERE merchant_id = $1`,
    messages: `SELECT body AS v FROM messages WHERE merchant_id = $1`,
  };
  const rows: Record<string, string[]> = {};
  if (database === 'sqlite') {
    const db = new SQLite(join(env.PAYKIT_DATA_DIR!, 'paykit.sqlite'), { readonly: true });
    try {
      for (const [name, query] of Object.entries(queries))
        rows[name] = db
          .prepare(query.replace('$1', '?'))
          .all(merchantId)
          .map((r) => (r as { v: string }).v);
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      for (const [name, query] of Object.entries(queries))
        rows[name] = (await client.query(query, [merchantId])).rows.map((r) => r.v);
    } finally {
      await client.end();
    }
  }
  const orderOf = (body: string) => /\(order (burst-[0-9]+)\)/.exec(body)?.[1] ?? body;
  return { orders: rows.orders!.sort(), requests: rows.requests!.sort(), messages: rows.messages!.map(orderOf).sort() };
}

for (const database of testDatabases()) {
  describe(`SIGKILL during a burst of payment requests (${database})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    test('every answered request is kept whole, and no request is kept in part', async () => {
      const { env, cleanup } = await storageEnv(database);
      cleanups.push(cleanup);
      const service = await startServiceProcess({ ...env, ...credentials });
      cleanups.push(async () => void (await service.stop('SIGKILL')));
      const onboarded = (await api(service, '/onboarding', validApplication())).body.data;
      assert.equal((await api(service, '/approve-merchant', { merchant_id: onboarded.merchant_id })).status, 200);

      // Each request reserves its order id, writes its pay link and an e-mail, in one transaction.
      const answered: string[] = [];
      // Killed the moment the twentieth answer arrives, while others are between their commit and its sync, or not yet
      // begun (a timer polling for it let the whole burst finish once the service got faster).
      let killed: Promise<number | null> | undefined;
      let twenty!: () => void;
      const twentyAnswered = new Promise<void>((resolve) => (twenty = resolve));
      const inFlight = Array.from({ length: BURST }, (_, i) => {
        const orderId = `burst-${i}`;
        return api(service, '/requests', {
          merchant_key: onboarded.merchant_key,
          amount: '4.00',
          order_id: orderId,
          email: `payer${i}@example.com`,
        })
          .then((answer) => {
            if (answer.status !== 200) assert.fail(`${orderId} answered ${answer.status}: ${answer.text}`);
            // Every answer counts, also one that arrives after the signal went out: it was acknowledged.
            answered.push(orderId);
            if (answered.length === 20) {
              killed = service.stop('SIGKILL');
              twenty();
            }
          })
          .catch((error: unknown) => {
            if (error instanceof assert.AssertionError) throw error;
          });
      });
      await Promise.race([
        twentyAnswered,
        new Promise((_, reject) => setTimeout(() => reject(new Error('twenty requests answered')), 10_000)),
      ]);
      assert.equal(await killed, null, 'killed, not closed');
      await Promise.all(inFlight);
      assert.ok(answered.length < BURST, `the kill came before the burst ended (${answered.length} answered)`);

      const kept = await keptRows(database, env, onboarded.merchant_id);
      for (const orderId of answered) {
        assert.ok(
          kept.orders.includes(orderId) && kept.requests.includes(orderId) && kept.messages.includes(orderId),
          `answered ${orderId} is kept whole`,
        );
      }
      // Kept requests that were never answered (committed, killed before the answer left) are whole too.
      assert.deepEqual(
        kept.requests,
        kept.orders,
        'every reserved order id has its pay link, and no pay link lacks one',
      );
      assert.deepEqual(kept.messages, kept.orders, 'every pay link has its e-mail');

      // And the service starts again on what was kept.
      const again = await startServiceProcess({ ...env, ...credentials });
      cleanups.push(async () => void (await again.stop()));
      const retry = await api(again, '/requests', {
        merchant_key: onboarded.merchant_key,
        amount: '4.00',
        order_id: answered[0],
        email: 'payer@example.com',
      });
      assert.equal(retry.status, 409, 'an answered order id stays taken');
    });
  });
}
