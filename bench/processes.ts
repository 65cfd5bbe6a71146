import { send } from '../test/support/http.ts';
import { startServiceProcess } from '../test/support/process.ts';
import { validApplication } from '../test/support/fixtures.ts';
import { load } from './load.ts';
import { BENCH_AUTH, basicAuthorization } from './credentials.ts';

/**
 * POST /requests on one PostgreSQL database from one service process (50 connections) and from two (25 each, at
 * once), alternately, `rounds` rounds of `seconds`: requests a second in all, median round.
 */
export async function measureProcesses(
  first: { baseUrl: string },
  databaseUrl: string,
  env: Record<string, string>,
  seconds: number,
  rounds: number,
): Promise<void> {
  const api = async (path: string, json: unknown) =>
    (await send(first.baseUrl, 'POST', `/api/v1${path}`, { auth: BENCH_AUTH, json })).body.data;
  const merchant = await api('/onboarding', validApplication());
  await api('/approve-merchant', { merchant_id: merchant.merchant_id });
  const second = await startServiceProcess({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env });
  let order = 0;
  const requests = (baseUrl: string, connections: number) =>
    load({
      url: `${baseUrl}/api/v1/requests`,
      method: 'POST',
      connections,
      duration: seconds,
      warmUp: false,
      headers: { authorization: basicAuthorization(BENCH_AUTH), 'content-type': 'application/json' },
      body: () =>
        JSON.stringify({
          merchant_key: merchant.merchant_key,
          amount: '25.00',
          order_id: `processes-${++order}`,
          email: 'payer@example.com',
        }),
    });
  const one: number[] = [];
  const two: number[] = [];
  try {
    await requests(first.baseUrl, 50);
    for (let round = 0; round < rounds; round++) {
      one.push((await requests(first.baseUrl, 50)).requestsPerSecond);
      two.push(
        (await Promise.all([requests(first.baseUrl, 25), requests(second.baseUrl, 25)])).reduce(
          (sum, r) => sum + r.requestsPerSecond,
          0,
        ),
      );
    }
  } finally {
    await second.stop();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log('\nPOST /requests on one PostgreSQL database, 50 connections in all (median round):');
  console.table([
    {
      'one process req/s': Math.round(median(one)),
      'two processes req/s': Math.round(median(two)),
      'two ÷ one': (median(two) / median(one)).toFixed(2),
    },
  ]);
}
