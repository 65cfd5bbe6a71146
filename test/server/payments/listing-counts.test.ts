import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { processPartner, startServiceProcess, type ServiceProcess } from '../../support/process.ts';
import { send, type Answer } from '../../support/http.ts';
import { testDatabases, type TestDatabase } from '../../support/databases.ts';
import { storageEnv } from '../../support/storage-env.ts';
import { approvedMerchant, TEST_CARD } from '../../support/payments.ts';

/**
 * The listings' totals come from counters that triggers keep in each write's transaction (migration 012). They must
 * equal the rows, whatever lands at once and however a process ends: every counter is compared with a count of the
 * rows it stands for, and every listing's `total` with the rows a walk by cursor returns.
 */
const { env: credentials, auth } = processPartner('counts');

const api = (
  service: ServiceProcess,
  method: string,
  path: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> => send(service.baseUrl, method, `/api/v1${path}`, { auth, json, headers });

async function sale(service: ServiceProcess, merchantKey: string, amount = '10.00'): Promise<string> {
  const link = await api(service, 'POST', '/requests', { merchant_key: merchantKey, amount, order_id: randomUUID() });
  assert.equal(link.status, 200, link.text);
  const paid = await api(service, 'POST', '/sandbox/pay', {
    pay_link: link.body.data.pay_link,
    method: 'card',
    ...TEST_CARD,
  });
  assert.equal(paid.status, 200, paid.text);
  return paid.body.data.transaction_id;
}

const refund = (service: ServiceProcess, merchantKey: string, transaction_id: string, amount: string) =>
  api(service, 'POST', '/order/sales-return', { merchant_key: merchantKey, transaction_id, amount });
const voidSale = (service: ServiceProcess, merchantKey: string, transaction_id: string) =>
  api(service, 'POST', '/order/sales-void', { merchant_key: merchantKey, transaction_id, sub_merchant_key: '' });

/** Each counter table against a count of its rows, as sorted lines; zero counters are left out (their rows moved on). */
const COMPARISONS = [
  [
    `SELECT merchant_id || ' ' || day || ' ' || kind || ' ' || status || ' ' || n AS line FROM transaction_counts WHERE n <> 0`,
    `SELECT merchant_id || ' ' || substr(created_at, 1, 10) || ' ' || kind || ' ' || status || ' ' || count(*) AS line FROM transactions GROUP BY merchant_id, substr(created_at, 1, 10), kind, status`,
  ],
  [
    `SELECT merchant_id || ' ' || n AS line FROM customer_counts WHERE n <> 0`,
    `SELECT merchant_id || ' ' || count(*) AS line FROM customers GROUP BY merchant_id`,
  ],
  [
    `SELECT status || ' ' || n AS line FROM merchant_counts WHERE n <> 0`,
    `SELECT status || ' ' || count(*) AS line FROM merchants GROUP BY status`,
  ],
  [
    `SELECT client_id || ' ' || delivery_status || ' ' || sum(n) AS line FROM event_counts GROUP BY client_id, delivery_status HAVING sum(n) <> 0`,
    `SELECT client_id || ' ' || delivery_status || ' ' || count(*) AS line FROM events GROUP BY client_id, delivery_status`,
  ],
] as const;

async function assertCountersMatchRows(database: TestDatabase, env: Record<string, string>): Promise<void> {
  const lines = async (query: string): Promise<string[]> => {
    if (database === 'sqlite') {
      const db = new SQLite(join(env.PAYKIT_DATA_DIR!, 'paykit.sqlite'), { readonly: true });
      try {
        return (db.prepare(query).all() as { line: string }[]).map((r) => r.line).sort();
      } finally {
        db.close();
      }
    }
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query<{ line: string }>(query)).rows.map((r) => r.line).sort();
    } finally {
      await client.end();
    }
  };
  for (const [counters, rows] of COMPARISONS) assert.deepEqual(await lines(counters), await lines(rows), counters);
}

/** Every row of a listing, page after page by cursor; and the first page's `total`. */
async function walk(
  first: (cursor: string | undefined) => Promise<{ ids: string[]; total: number; next: string | null }>,
) {
  const ids: string[] = [];
  let cursor: string | undefined;
  let total = -1;
  for (let pages = 0; pages < 1_000; pages++) {
    const page = await first(cursor);
    if (total === -1) total = page.total;
    ids.push(...page.ids);
    if (!page.next) return { ids, total };
    cursor = page.next;
  }
  throw new Error('more than 1000 pages');
}

async function assertTotalsMatchWalks(service: ServiceProcess, merchantKey: string): Promise<void> {
  const listed = await walk(async (cursor) => {
    const answer = await api(
      service,
      'GET',
      `/merchant/transactions?merchant_key=${merchantKey}&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
    );
    assert.equal(answer.status, 200, answer.text);
    return {
      ids: answer.body.data.map((t: { transaction_id: string }) => t.transaction_id),
      total: answer.body.total,
      next: answer.body.next_cursor,
    };
  });
  assert.equal(new Set(listed.ids).size, listed.ids.length, 'no row twice');
  assert.equal(listed.total, listed.ids.length);
  const token = (await api(service, 'POST', '/widgets/sessions', { merchant_key: merchantKey })).body.data
    .session_token;
  const table = await walk(async (cursor) => {
    const answer = await send(
      service.baseUrl,
      'GET',
      `/api/v1/widgets/transactions?perPage=4${cursor ? `&cursor=${cursor}` : ''}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    assert.equal(answer.status, 200, answer.text);
    return {
      ids: answer.body.data.items.map((t: { transaction_id: string }) => t.transaction_id),
      total: answer.body.data.totalCount,
      next: answer.body.data.next_cursor,
    };
  });
  assert.equal(table.total, table.ids.length);
}

for (const database of testDatabases()) {
  describe(`listing totals stay exact (${database})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    test('under concurrent sales, refunds (of one sale at once) and voids (one sale voided twice at once)', async () => {
      const { env, cleanup } = await storageEnv(database);
      cleanups.push(cleanup);
      const service = await startServiceProcess({ ...env, ...credentials });
      cleanups.push(async () => void (await service.stop()));
      const { merchantKey } = await approvedMerchant(service, auth);
      const other = await approvedMerchant(service, auth);
      const sales = await Promise.all([
        ...Array.from({ length: 12 }, () => sale(service, merchantKey)),
        ...Array.from({ length: 4 }, () => sale(service, other.merchantKey)),
      ]);
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => refund(service, merchantKey, sales[0]!, '2.00')),
        refund(service, merchantKey, sales[1]!, '10.00'),
        refund(service, merchantKey, sales[2]!, '3.00'),
        voidSale(service, merchantKey, sales[3]!),
        voidSale(service, merchantKey, sales[3]!),
        voidSale(service, merchantKey, sales[4]!),
        voidSale(service, other.merchantKey, sales[12]!),
        ...Array.from({ length: 6 }, () => sale(service, merchantKey).then(() => ({ status: 200 }))),
      ]);
      assert.equal(
        answers.filter((a) => a.status === 200).length,
        5 + 2 + 3 + 6,
        'five of six refunds of 2.00 fit in 10.00; one of the two voids of one sale',
      );
      await assertCountersMatchRows(database, env);
      await assertTotalsMatchWalks(service, merchantKey);
      await assertTotalsMatchWalks(service, other.merchantKey);
      const table = await api(service, 'GET', `/merchant/transactions?merchant_key=${merchantKey}&limit=1`);
      // 18 sales, 6 refunds (5 of sales[0], 1 each of sales[1] and [2]) and 2 voids.
      assert.equal(table.body.total, 18 + 7 + 2);
    });

    test('when the process is killed in the middle of a burst of writes', async () => {
      const { env, cleanup } = await storageEnv(database);
      cleanups.push(cleanup);
      const first = await startServiceProcess({ ...env, ...credentials });
      cleanups.push(async () => void (await first.stop('SIGKILL')));
      const { merchantKey } = await approvedMerchant(first, auth);
      const sales = await Promise.all(Array.from({ length: 6 }, () => sale(first, merchantKey)));
      const burst = [
        ...Array.from({ length: 12 }, () => sale(first, merchantKey)),
        ...sales.slice(0, 3).map((id) => refund(first, merchantKey, id, '1.00')),
        ...sales.slice(3).map((id) => voidSale(first, merchantKey, id)),
      ].map((p) => p.catch(() => undefined));
      await new Promise((resolve) => setTimeout(resolve, 15));
      assert.equal(await first.stop('SIGKILL'), null, 'killed, not closed');
      await Promise.all(burst);

      await assertCountersMatchRows(database, env);
      const second = await startServiceProcess({ ...env, ...credentials });
      cleanups.push(async () => void (await second.stop()));
      await Promise.all([sale(second, merchantKey), refund(second, merchantKey, sales[0]!, '1.00')]);
      await assertCountersMatchRows(database, env);
      await assertTotalsMatchWalks(second, merchantKey);
    });
  });
}
