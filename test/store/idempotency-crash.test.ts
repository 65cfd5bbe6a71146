import { after, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { processPartner, startServiceProcess, type ServiceProcess } from '../support/process.ts';
import { send, type Answer } from '../support/http.ts';
import { testDatabases } from '../support/databases.ts';
import { storageEnv } from '../support/storage-env.ts';
import { validApplication } from '../support/fixtures.ts';
import { TEST_CARD } from '../support/payments.ts';
import { IDEMPOTENCY_LEASE_MS } from '../../server/store/idempotency-keys.ts';
import { waitUntil } from '../support/wait.ts';

const { env: credentials, auth } = processPartner('crash');
const HELD =
  /^A request with this Idempotency-Key has not finished: it may still run on another process, or its process stopped\. Retry in \d+ seconds, when its hold runs out\.$/;
const HELD_FOR = (seconds: number) =>
  `A request with this Idempotency-Key has not finished: it may still run on another process, or its process stopped. Retry in ${seconds} seconds, when its hold runs out.`;

const api = (service: ServiceProcess, method: string, path: string, json?: unknown, key?: string): Promise<Answer> =>
  send(service.baseUrl, method, `/api/v1${path}`, { auth, json, headers: key ? { 'idempotency-key': key } : {} });

/** An approved merchant with one paid sale of 100.00. */
async function merchantWithSale(service: ServiceProcess): Promise<{ merchantKey: string; saleId: string }> {
  const onboarded = (await api(service, 'POST', '/onboarding', validApplication())).body.data;
  await api(service, 'POST', '/approve-merchant', { merchant_id: onboarded.merchant_id });
  const link = await api(service, 'POST', '/requests', {
    merchant_key: onboarded.merchant_key,
    amount: '100.00',
    order_id: randomUUID(),
  });
  const paid = await api(service, 'POST', '/sandbox/pay', {
    pay_link: link.body.data.pay_link,
    method: 'card',
    ...TEST_CARD,
  });
  assert.equal(paid.status, 200, paid.text);
  return { merchantKey: onboarded.merchant_key, saleId: paid.body.data.transaction_id };
}

async function sale(service: ServiceProcess, merchantKey: string, saleId: string) {
  return (await api(service, 'GET', `/merchant/transactions/${saleId}`, { merchant_key: merchantKey })).body.data[0];
}

const refundedAmount = async (service: ServiceProcess, merchantKey: string, saleId: string): Promise<string> =>
  (await sale(service, merchantKey, saleId)).refunded_amount;

/** Lets every claim the killed process left run out, by the service's (sandbox) clock. */
async function outlastLeases(service: ServiceProcess): Promise<void> {
  const answer = await api(service, 'POST', '/sandbox/clock/advance', {
    hours: (IDEMPOTENCY_LEASE_MS * 2) / 3_600_000,
  });
  assert.equal(answer.status, 200, answer.text);
}

for (const database of testDatabases()) {
  describe(`an Idempotency-Key survives SIGKILL mid-request: exactly one effect (${database})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    // The kill lands a few milliseconds into the burst: some requests have finished, some are between their claim
    // and their commit, some have not arrived. Whatever each was doing, the outcome must be exactly one refund per key.
    for (const killAfterMs of [5, 15]) {
      test(`a burst of keyed refunds killed ${killAfterMs} ms in: after restart every key is refunded exactly once`, async () => {
        const { env, cleanup } = await storageEnv(database);
        cleanups.push(cleanup);
        const first = await startServiceProcess({ ...env, ...credentials });
        cleanups.push(async () => void (await first.stop('SIGKILL')));
        const { merchantKey, saleId } = await merchantWithSale(first);
        const keys = Array.from({ length: 16 }, () => randomUUID());
        const refund = (service: ServiceProcess, key: string) =>
          api(
            service,
            'POST',
            '/order/sales-return',
            { merchant_key: merchantKey, transaction_id: saleId, amount: '1.00' },
            key,
          );
        const inFlight = keys.map((key) => refund(first, key).catch(() => undefined));
        await new Promise((resolve) => setTimeout(resolve, killAfterMs));
        assert.equal(await first.stop('SIGKILL'), null, 'killed, not closed');
        await Promise.all(inFlight);

        const second = await startServiceProcess({ ...env, ...credentials });
        cleanups.push(async () => void (await second.stop()));
        const early = await Promise.all(keys.map((key) => refund(second, key)));
        for (const answer of early) {
          if (database === 'sqlite') {
            // One process serves SQLite: a claim no request of its own holds was left by one that stopped, and is
            // taken over at once.
            assert.equal(answer.status, 200, answer.text);
            continue;
          }
          assert.ok([200, 409].includes(answer.status), answer.text);
          if (answer.status === 409) {
            // Another process may still run it: the retry is told when the killed one's hold runs out, not "1 second"
            // for a minute.
            assert.match(answer.body.message, HELD);
            const retryAfter = Number(answer.headers['retry-after']);
            assert.ok(
              retryAfter > IDEMPOTENCY_LEASE_MS / 2000 && retryAfter <= IDEMPOTENCY_LEASE_MS / 1000,
              `Retry-After: ${retryAfter}`,
            );
            assert.equal(answer.body.message, HELD_FOR(retryAfter));
          }
        }
        await outlastLeases(second);
        const retried = await Promise.all(keys.map((key) => refund(second, key)));
        assert.deepEqual([...new Set(retried.map((a) => a.status))], [200], retried.map((a) => a.text).join('\n'));
        const replayed = await Promise.all(keys.map((key) => refund(second, key)));
        replayed.forEach((answer, i) => {
          assert.equal(answer.headers['idempotent-replayed'], 'true');
          assert.equal(answer.text, retried[i]!.text);
        });
        assert.equal(
          new Set(retried.map((a) => a.body.data.transaction_id)).size,
          keys.length,
          'one refund record per key',
        );
        assert.equal(
          await refundedAmount(second, merchantKey, saleId),
          '16.00',
          'sixteen keys, sixteen refunds of 1.00, none twice',
        );
      });
    }
  });
}

describe(
  'a keyed request waiting for a row when its process dies (postgres)',
  { skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' },
  () => {
    /** A started process with a paid sale whose row another connection holds; the request sent waits for it, then the process is killed. */
    async function killedWhileWaiting(
      t: TestContext,
      path: string,
      body: (merchantKey: string, saleId: string) => Record<string, string>,
    ) {
      const { env } = await storageEnv('postgres');
      const first = await startServiceProcess({ ...env, ...credentials });
      t.after(async () => void (await first.stop('SIGKILL')));
      const { merchantKey, saleId } = await merchantWithSale(first);
      const blocker = new pg.Client({ connectionString: env.DATABASE_URL });
      await blocker.connect();
      t.after(() => blocker.end());
      await blocker.query('BEGIN');
      await blocker.query('SELECT id FROM transactions WHERE id = $1 FOR UPDATE', [saleId]);
      const key = randomUUID();
      const blocked = api(first, 'POST', path, body(merchantKey, saleId), key).catch(() => undefined);
      const waitingForBlocker = async () =>
        Number(
          (
            await blocker.query(
              'SELECT count(*) AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY (pg_blocking_pids(pid))',
            )
          ).rows[0].n,
        );
      await waitUntil(async () => (await waitingForBlocker()) === 1, {
        what: 'the request waiting for the sale, its key claimed',
        timeoutMs: 5000,
      });
      assert.equal(await first.stop('SIGKILL'), null);
      await blocked;
      await blocker.query('ROLLBACK');
      const second = await startServiceProcess({ ...env, ...credentials });
      t.after(async () => void (await second.stop()));
      const send = () => api(second, 'POST', path, body(merchantKey, saleId), key);
      return { send, second, merchantKey, saleId };
    }

    // Money writes are one statement each since issue 42; closing a sandbox batch is still a unit of work.
    test('in its unit of work (closing a batch): nothing it did is kept, its claim runs out and the retry settles once', async (t) => {
      const { send, second, merchantKey, saleId } = await killedWhileWaiting(t, '/sandbox/settle', (merchant_key) => ({
        merchant_key,
      }));
      const early = await send();
      assert.equal(early.status, 409);
      assert.equal(early.body.message, HELD_FOR(Number(early.headers['retry-after'])));
      assert.equal(
        (await sale(second, merchantKey, saleId)).settled,
        false,
        'the killed settlement left nothing behind',
      );
      await outlastLeases(second);
      const retried = await send();
      assert.equal(retried.status, 200, retried.text);
      assert.equal(retried.headers['idempotent-replayed'], undefined, 'it ran, since nothing had been committed');
      const again = await send();
      assert.deepEqual([again.headers['idempotent-replayed'], again.text], ['true', retried.text]);
      assert.equal((await sale(second, merchantKey, saleId)).settled, true);
    });

    test('in its one statement (a void): PostgreSQL finishes the statement, so the void and its answer commit together, and the retry gets that answer', async (t) => {
      const { send, second, merchantKey, saleId } = await killedWhileWaiting(
        t,
        '/order/sales-void',
        (merchant_key, transaction_id) => ({ merchant_key, transaction_id, sub_merchant_key: '' }),
      );
      const retried = await send();
      assert.deepEqual([retried.status, retried.headers['idempotent-replayed']], [200, 'true'], retried.text);
      assert.equal(retried.body.message, 'Transaction voided.');
      const again = await send();
      assert.equal(again.text, retried.text);
      assert.equal((await sale(second, merchantKey, saleId)).status, 'voided', 'voided once');
    });

    test('in its one statement (a refund): PostgreSQL finishes the statement, so the refund and its answer commit together, and the retry gets that answer', async (t) => {
      const { send, second, merchantKey, saleId } = await killedWhileWaiting(
        t,
        '/order/sales-return',
        (merchant_key, transaction_id) => ({ merchant_key, transaction_id, amount: '40.00' }),
      );
      const retried = await send();
      assert.deepEqual([retried.status, retried.headers['idempotent-replayed']], [200, 'true'], retried.text);
      assert.equal(retried.body.message, 'Refund processed.');
      const again = await send();
      assert.equal(again.text, retried.text);
      assert.equal(await refundedAmount(second, merchantKey, saleId), '40.00', 'refunded once');
    });
  },
);
