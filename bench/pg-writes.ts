import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dropPostgresSchema, StatementCounter } from '../server/store/open.ts';
import { freePort, untilAnswering } from '../test/support/process.ts';
import { roundTripsPerWrite } from '../test/support/round-trips.ts';
import { load, type LoadResult } from './load.ts';
import { combineRounds, type Combined } from './rounds.ts';

type Writes = { requests: Combined; refunds: Combined };

/** Round trips per write on PostgreSQL, counted on an in-process service in a schema of its own (dropped after). */
export async function countRoundTrips(databaseUrl: string): Promise<Record<string, number>> {
  // The test service's PostgreSQL: read when its module is first loaded, so set before the import below.
  process.env.PAYKIT_TEST_DATABASE_URL = databaseUrl;
  const { startService } = await import('../test/support/service.ts');
  const statements = new StatementCounter();
  const service = await startService({ database: 'postgres', statements });
  try {
    return await roundTripsPerWrite(service, statements);
  } finally {
    await service.close();
    await dropPostgresSchema(databaseUrl, service.schema!);
  }
}

/** The floor's writes through bench/http-floor.ts, a Fastify process of its own loaded as the service is (50 connections). */
export async function httpWriteFloors(databaseUrl: string, seconds: number, rounds: number): Promise<Writes> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bench/http-floor.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    await untilAnswering(`http://127.0.0.1:${port}/health`, child);
    const measure = async (path: string, body: string) => {
      const results: LoadResult[] = [];
      for (let round = 0; round < rounds; round++) {
        results.push(
          await load({
            url: `http://127.0.0.1:${port}${path}`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
            duration: seconds,
            warmUp: round === 0,
          }),
        );
      }
      return combineRounds(results);
    };
    return {
      requests: await measure('/requests', '{"amount":"90.00"}'),
      refunds: await measure('/refunds', '{"amount":"0.01"}'),
    };
  } finally {
    child.kill();
    await once(child, 'exit');
  }
}

/**
 * The service's PostgreSQL writes against the same rows written as one statement through `pg` (bench/pg-floor.ts),
 * and through Fastify alone with the design's read (bench/http-floor.ts).
 */
export function printAgainstFloor(service: Writes, floor: Writes, httpFloor: Writes): void {
  console.log(
    '\nPostgreSQL writes against the one-statement floor through pg, and through Fastify alone (same run, 50 loops or connections, pool of 10):',
  );
  console.table(
    (['requests', 'refunds'] as const).map((kind) => ({
      write: kind === 'requests' ? 'POST /requests (with an e-mail)' : 'refunds of one sale (0.01 each)',
      'service req/s': Math.round(service[kind].requestsPerSecond),
      'Fastify floor req/s': Math.round(httpFloor[kind].requestsPerSecond),
      'floor statements/s': Math.round(floor[kind].requestsPerSecond),
      'service ÷ floor': (service[kind].requestsPerSecond / floor[kind].requestsPerSecond).toFixed(2),
      'Fastify floor ÷ floor': (httpFloor[kind].requestsPerSecond / floor[kind].requestsPerSecond).toFixed(2),
      'service ÷ Fastify floor': (service[kind].requestsPerSecond / httpFloor[kind].requestsPerSecond).toFixed(2),
      'p99 ms: service, Fastify floor, floor': `${service[kind].p99Ms}, ${httpFloor[kind].p99Ms}, ${floor[kind].p99Ms}`,
    })),
  );
}
