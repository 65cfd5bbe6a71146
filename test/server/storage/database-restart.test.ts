import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { processPartner, startServiceProcess, type ServiceProcess } from '../../support/process.ts';
import { send, type Answer } from '../../support/http.ts';
import { TEST_DATABASE_URL, testDatabases } from '../../support/databases.ts';
import { storageEnv } from '../../support/storage-env.ts';
import { validApplication } from '../../support/fixtures.ts';
import { Receiver } from '../../support/receiver.ts';
import { TcpGate } from '../../support/tcp-gate.ts';
import { waitUntil } from '../../support/wait.ts';

const { env: credentials, auth } = processPartner('restart');
const fast = {
  PAYKIT_WEBHOOK_TIMEOUT_MS: '1000',
  PAYKIT_WEBHOOK_POLL_MS: '100',
  PAYKIT_WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
};

/** Ends every connection a service's processes hold, as a PostgreSQL restart, a failover or a proxy's idle cut does. */
async function cutConnections(applicationName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

/** Onboards merchants from several loops across the processes until `stop` is set; every answer is kept. */
function writeUnderLoad(processes: ServiceProcess[], stop: { now: boolean }) {
  const answers: Answer[] = [];
  const loops = Array.from({ length: 4 }, async (_, loop) => {
    // Bounded: a loop never sends more than this, whatever happens to the flag.
    for (let i = 0; i < 1500 && !stop.now; i++) {
      const target = processes[(loop + i) % processes.length]!;
      answers.push(await send(target.baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth }));
    }
  });
  return { answers, done: Promise.all(loops) };
}

describe(
  'the service outlives its PostgreSQL connections being ended',
  { skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' },
  () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    for (const count of [1, 2]) {
      test(`${count} process${count > 1 ? 'es' : ''}: two cuts under load, no exit, writes again within seconds, nothing acknowledged lost, every event delivered once`, async (t) => {
        const receiver = await new Receiver().start();
        cleanups.push(() => receiver.stop());
        const { env } = await storageEnv('postgres');
        const applicationName = `paykit_cut_${randomBytes(4).toString('hex')}`;
        const url = new URL(env.DATABASE_URL!);
        url.searchParams.set('application_name', applicationName);
        const processEnv = { ...env, DATABASE_URL: url.toString(), ...credentials, ...fast };
        const processes: ServiceProcess[] = [];
        for (let i = 0; i < count; i++) {
          const started = await startServiceProcess(processEnv);
          cleanups.push(() => started.stop());
          processes.push(started);
        }
        const first = processes[0]!;
        assert.equal(
          (
            await send(first.baseUrl, 'POST', '/api/v1/client/update-webhooks-url', {
              json: { webhook_url: receiver.url },
              auth,
            })
          ).status,
          200,
        );

        const stop = { now: false };
        const load = writeUnderLoad(processes, stop);
        // Each phase lasts until ten more writes were acknowledged: under load before the first cut, again after each.
        const tenMoreWrites = async (what: string) => {
          const from = load.answers.length;
          await waitUntil(() => load.answers.slice(from).filter((a) => a.status === 200).length >= 10, {
            what,
            timeoutMs: 20_000,
          });
        };
        await tenMoreWrites('writes under load');
        assert.ok((await cutConnections(applicationName)) > 0, 'the first cut ended connections');
        await tenMoreWrites('writes again after the first cut');
        assert.ok((await cutConnections(applicationName)) > 0, 'the second cut ended connections');
        const secondCutAt = Date.now();
        await tenMoreWrites('writes again after the second cut');
        stop.now = true;
        await load.done;

        for (const service of processes)
          assert.equal(service.child.exitCode, null, `a process exited: ${service.output()}`);
        const statuses = new Map<number, number>();
        for (const answer of load.answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const summary = JSON.stringify(Object.fromEntries(statuses));
        // Only successes, and 503 in the envelope with Retry-After for the requests that met an ended connection.
        assert.deepEqual(
          [...statuses.keys()].filter((status) => status !== 200 && status !== 503),
          [],
          summary,
        );
        for (const answer of load.answers.filter((a) => a.status === 503)) {
          assert.equal(answer.body.result, false);
          assert.equal(answer.body.code, 'service_error');
          assert.ok(Number(answer.headers['retry-after']) > 0, 'a 503 says when to retry');
        }
        const acknowledged = load.answers.filter((a) => a.status === 200).map((a) => a.body.data.merchant_id as string);
        assert.ok(acknowledged.length > 20, summary);

        // Writes succeed again within a few seconds of the last cut, on every process.
        for (const service of processes) {
          const again = await send(service.baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth });
          assert.equal(again.status, 200, JSON.stringify(again.body));
          acknowledged.push(again.body.data.merchant_id);
          const health = await send(service.baseUrl, 'GET', '/health');
          assert.equal(health.status, 200);
          assert.equal(health.body.data.database, 'reachable');
        }
        assert.ok(Date.now() - secondCutAt < 10_000);
        t.diagnostic(`answers during the cuts: ${summary}`);

        // Every event the database holds reaches the endpoint, each once; acknowledged onboardings' events among them.
        const events = await send(first.baseUrl, 'GET', '/api/v1/client/webhooks/events', {
          json: { perPage: 1 },
          auth,
        });
        const stored = events.body.data.totalCount as number;
        assert.ok(
          stored >= acknowledged.length * 2,
          `${stored} events stored for ${acknowledged.length} acknowledged onboardings`,
        );
        await receiver.waitFor((all) => new Set(all.map((r) => r.id)).size >= stored, 30_000);
        // Stopped, the processes have finished the deliveries under way: a second delivery of an event would be in.
        for (const service of processes) assert.equal(await service.stop(), 0, service.output());
        const deliveries = new Map<string, number>();
        for (const receipt of receiver.receipts) deliveries.set(receipt.id, (deliveries.get(receipt.id) ?? 0) + 1);
        assert.equal(deliveries.size, stored);
        assert.deepEqual(
          [...deliveries.entries()].filter(([, times]) => times > 1),
          [],
          'no event was delivered twice',
        );
        const merchantsWithEvents = new Set(receiver.receipts.map((r) => r.event.data['merchant_id']));
        assert.deepEqual(
          acknowledged.filter((id) => !merchantsWithEvents.has(id)),
          [],
          'every acknowledged onboarding is kept, with its events',
        );
      });
    }
  },
);

describe(
  'GET /health is readiness',
  { skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' },
  () => {
    test('answers 503 while the database is unreachable and 200 again once it is back; the API answers 503, never 500', async (t) => {
      const { env } = await storageEnv('postgres');
      const direct = new URL(env.DATABASE_URL!);
      const gate = await new TcpGate({ host: direct.hostname, port: Number(direct.port || 5432) }).start();
      t.after(() => gate.stop());
      const through = new URL(direct);
      through.port = String(gate.port);
      const service = await startServiceProcess({ ...env, DATABASE_URL: through.toString(), ...credentials });
      t.after(() => service.stop());
      assert.equal((await send(service.baseUrl, 'GET', '/health')).status, 200);

      gate.close();
      const away = await send(service.baseUrl, 'GET', '/health');
      assert.equal(away.status, 503);
      assert.deepEqual(
        [away.body.result, away.body.code, away.body.data.database],
        [false, 'service_error', 'unreachable'],
      );
      const write = await send(service.baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth });
      assert.equal(write.status, 503, JSON.stringify(write.body));
      assert.ok(Number(write.headers['retry-after']) > 0);

      gate.reopen();
      assert.equal((await send(service.baseUrl, 'GET', '/health')).status, 200);
      assert.equal(
        (await send(service.baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth })).status,
        200,
      );
      assert.equal(service.child.exitCode, null);
      // One line for the lost connections and one for the refused requests, not a stack per request.
      assert.ok(
        service
          .output()
          .split('\n')
          .filter((line) => line.includes('"level":50')).length <= 4,
        service.output(),
      );
    });
  },
);
