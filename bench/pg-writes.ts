import { dropPostgresSchema, StatementCounter } from '../server/store/open.ts';
import { roundTripsPerWrite } from '../test/support/round-trips.ts';
import type { Combined } from './rounds.ts';

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

/** The service's PostgreSQL writes against the same rows written as one statement through `pg` (bench/pg-floor.ts). */
export function printAgainstFloor(service: { requests: Combined; refunds: Combined }, floor: { requests: Combined; refunds: Combined }): void {
  console.log('\nPostgreSQL writes against the one-statement floor through pg (same run, 50 loops, pool of 10):');
  console.table((['requests', 'refunds'] as const).map((kind) => ({
    write: kind === 'requests' ? 'POST /requests (with an e-mail)' : 'refunds of one sale (0.01 each)',
    'service req/s': Math.round(service[kind].requestsPerSecond),
    'floor statements/s': Math.round(floor[kind].requestsPerSecond),
    'service ÷ floor': (service[kind].requestsPerSecond / floor[kind].requestsPerSecond).toFixed(2),
    'service p99 ms': service[kind].p99Ms,
    'floor p99 ms': floor[kind].p99Ms,
    'p99 × floor': (service[kind].p99Ms / Math.max(1, floor[kind].p99Ms)).toFixed(2),
  })));
}
