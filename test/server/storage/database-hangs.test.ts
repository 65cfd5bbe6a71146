/**
 * A PostgreSQL that stops answering without going away (issue 41): frozen (SIGSTOP on a server the test owns), or cut
 * silently (a relay that stops passing bytes without closing anything, then delivers what it held late, as TCP does,
 * and never answers on the old links again). Every request gets its answer within the bound (503 at worst), the stuck
 * connections are destroyed and replaced, the service is healthy within seconds of the database's return, and no write
 * commits after its request was answered with an error, unless a retry with its Idempotency-Key replays it.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { processPartner, startServiceProcess, type ServiceProcess } from '../../support/process.ts';
import { send, type Answer } from '../../support/http.ts';
import { testDatabases } from '../../support/databases.ts';
import { storageEnv } from '../../support/storage-env.ts';
import { approvedMerchant } from '../../support/payments.ts';
import { TcpGate } from '../../support/tcp-gate.ts';
import { OwnPostgres } from '../../support/own-postgres.ts';
import { waitUntil } from '../../support/wait.ts';
import { POSTGRES_TIMEOUTS } from '../../../server/store/postgres-pool.ts';

const { env: credentials, auth } = processPartner('hang');
/** The bound on an answer while the database hangs, plus what a busy 2-core machine adds to it. */
const ANSWER_BOUND_MS = POSTGRES_TIMEOUTS.answerMs + 2000;
/** How long the database stays away: longer than every bound, so that every connection open before gets stuck. */
const AWAY_MS = POSTGRES_TIMEOUTS.answerMs + 2000;

interface Write {
  orderId: string;
  key: string | undefined;
  answer: Answer | undefined;
  sentAt: number;
  answeredAt: number;
}

/** A request that is given up on after a while: a service that never answers fails the test instead of hanging it. */
async function timed(
  baseUrl: string,
  method: string,
  path: string,
  options: Parameters<typeof send>[3] = {},
): Promise<{ answer: Answer | undefined; ms: number }> {
  const start = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, 20_000, undefined)));
  const answer = await Promise.race([send(baseUrl, method, path, options).catch(() => undefined), late]);
  clearTimeout(timer);
  return { answer, ms: Date.now() - start };
}

/** Payment requests from a few loops, every other one with an Idempotency-Key, until `stop` is set. */
function writeLoops(service: ServiceProcess, merchantKey: string, stop: { now: boolean }) {
  const writes: Write[] = [];
  const loops = Array.from({ length: 4 }, async (_, loop) => {
    // Bounded: a loop never sends more than this, whatever happens to the flag.
    for (let i = 0; i < 2000 && !stop.now; i++) {
      const orderId = `hang-${randomUUID()}`;
      const key = (loop + i) % 2 === 0 ? randomUUID() : undefined;
      const sentAt = Date.now();
      const { answer } = await timed(service.baseUrl, 'POST', '/api/v1/requests', {
        json: { merchant_key: merchantKey, amount: '1.00', order_id: orderId },
        auth,
        headers: key ? { 'idempotency-key': key } : {},
      });
      writes.push({ orderId, key, answer, sentAt, answeredAt: Date.now() });
    }
  });
  return { writes, done: Promise.all(loops) };
}

/**
 * Writes under way, the database taken away (`hang`) for longer than every bound, then given back (`recover`): checks
 * every answer, the return to health, and what the database holds.
 */
async function hangUnderLoad(service: ServiceProcess, databaseUrl: string, hang: () => void, recover: () => void) {
  const { merchantKey } = await approvedMerchant(service, auth);
  const stop = { now: false };
  const load = writeLoops(service, merchantKey, stop);
  await waitUntil(() => load.writes.filter((w) => w.answer?.status === 200).length >= 20, {
    what: 'writes before the hang',
    timeoutMs: 20_000,
  });

  hang();
  const hungAt = Date.now();
  const health = await timed(service.baseUrl, 'GET', '/health');
  assert.equal(health.answer?.status, 503, 'health says the database is unreachable');
  assert.ok(health.ms < 2500, `health answered in ${health.ms} ms`);
  await new Promise((resolve) => setTimeout(resolve, AWAY_MS - (Date.now() - hungAt)));

  recover();
  const recoveredAt = Date.now();
  await waitUntil(async () => (await send(service.baseUrl, 'GET', '/health')).status === 200, {
    what: 'health after the database came back',
    timeoutMs: 10_000,
  });
  const healthyAfterMs = Date.now() - recoveredAt;
  const from = load.writes.length;
  await waitUntil(() => load.writes.slice(from).filter((w) => w.answer?.status === 200).length >= 10, {
    what: 'writes after the database came back',
    timeoutMs: 15_000,
  });
  const writingAfterMs = Date.now() - recoveredAt;
  stop.now = true;
  await load.done;
  assert.equal(service.child.exitCode, null, service.output());

  const statuses = new Map<number, number>();
  for (const write of load.writes)
    statuses.set(write.answer?.status ?? 0, (statuses.get(write.answer?.status ?? 0) ?? 0) + 1);
  const summary = `${JSON.stringify(Object.fromEntries(statuses))}; healthy ${healthyAfterMs} ms and writing ${writingAfterMs} ms after the return`;
  assert.deepEqual(
    [...statuses.keys()].filter((status) => status !== 200 && status !== 503),
    [],
    `only 200 and 503: ${summary}`,
  );
  const failed = load.writes.filter((w) => w.answer?.status === 503);
  assert.ok(failed.length > 0, `the hang was met: ${summary}`);
  for (const write of failed) {
    assert.deepEqual([write.answer!.body.result, write.answer!.body.code], [false, 'service_error']);
    assert.ok(Number(write.answer!.headers['retry-after']) > 0);
  }
  const slowest = Math.max(...load.writes.map((w) => w.answeredAt - w.sentAt));
  assert.ok(
    slowest <= ANSWER_BOUND_MS,
    `every request answered within ${ANSWER_BOUND_MS} ms; the slowest took ${slowest} ms: ${summary}`,
  );
  assert.ok(healthyAfterMs < 5000, summary);

  // Whatever the database had not finished when its request was answered 503 never commits later: wait until every
  // bound PostgreSQL has ran out since its return, then look.
  await new Promise((resolve) =>
    setTimeout(resolve, recoveredAt + POSTGRES_TIMEOUTS.statementMs + POSTGRES_TIMEOUTS.idleMs - Date.now()),
  );
  const stored = await ordersStored(
    databaseUrl,
    load.writes.map((w) => w.orderId),
  );
  const acknowledged = load.writes.filter((w) => w.answer?.status === 200);
  assert.deepEqual(
    acknowledged.filter((w) => !stored.has(w.orderId)).map((w) => w.orderId),
    [],
    'every acknowledged write is kept',
  );
  // A write answered 503 may have committed before its answer was lost, never after it. With commit times (the
  // server the test owns keeps them) that is checked for each; without, for the writes sent into the hang, which
  // reached the database only late (the relay delivers them on its return), if ever.
  const lateCommits = failed.filter((w) => {
    if (w.key !== undefined || !stored.has(w.orderId)) return false;
    const committedAt = stored.get(w.orderId) ?? null;
    return committedAt === null ? w.sentAt > hungAt : committedAt > w.answeredAt;
  });
  assert.deepEqual(
    lateCommits.map((w) => w.orderId),
    [],
    `a write given up on committed afterwards: ${summary}`,
  );

  // A keyed write answered 503, retried with its key: it runs now, or its first answer is replayed; never twice.
  for (const write of failed.filter((w) => w.key !== undefined)) {
    const retried = await send(service.baseUrl, 'POST', '/api/v1/requests', {
      json: { merchant_key: merchantKey, amount: '1.00', order_id: write.orderId },
      auth,
      headers: { 'idempotency-key': write.key! },
    });
    assert.equal(retried.status, 200, `the retry of ${write.orderId}: ${retried.text}`);
    assert.equal(
      retried.headers['idempotent-replayed'] === 'true',
      stored.has(write.orderId),
      'replayed exactly when the first had committed',
    );
  }
  return summary;
}

/** The orders the database holds among `orderIds`, with when each committed where the server keeps commit times. */
async function ordersStored(databaseUrl: string, orderIds: string[]): Promise<Map<string, number | null>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const timed = (await client.query('SHOW track_commit_timestamp')).rows[0].track_commit_timestamp === 'on';
    const committed = timed ? 'pg_xact_commit_timestamp(xmin)' : 'NULL::timestamptz';
    const { rows } = await client.query(
      `SELECT order_id, ${committed} AS committed FROM payment_requests WHERE order_id = ANY($1)`,
      [orderIds],
    );
    return new Map(
      rows.map((row) => [row.order_id as string, row.committed ? (row.committed as Date).getTime() : null]),
    );
  } finally {
    await client.end();
  }
}

// The two run side by side: each mostly waits out its hang.
describe(
  'a database that hangs or is cut silently (postgres)',
  { concurrency: 2, skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' },
  () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    test('a link cut silently, then back: 503s within the bound, stuck connections replaced, no late commit', async (t) => {
      const { env } = await storageEnv('postgres');
      const direct = new URL(env.DATABASE_URL!);
      const gate = await new TcpGate({ host: direct.hostname, port: Number(direct.port || 5432) }).start();
      cleanups.push(() => gate.stop());
      const through = new URL(direct);
      through.port = String(gate.port);
      const service = await startServiceProcess({ ...env, DATABASE_URL: through.toString(), ...credentials });
      cleanups.push(() => service.stop());
      t.diagnostic(
        await hangUnderLoad(
          service,
          direct.toString(),
          () => gate.silence(),
          () => gate.restore(),
        ),
      );
    });

    test('a server frozen (SIGSTOP), then thawed: 503s within the bound, stuck connections replaced, no late commit', async (t) => {
      const server = await new OwnPostgres().start();
      cleanups.push(() => server.stop());
      const service = await startServiceProcess({ DATABASE_URL: server.url, ...credentials });
      cleanups.push(() => service.stop());
      t.diagnostic(
        await hangUnderLoad(
          service,
          server.url,
          () => server.freeze(),
          () => server.thaw(),
        ),
      );
    });
  },
);
