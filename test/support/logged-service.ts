import type { TestContext } from 'node:test';
import { buildApp } from '../../server/app.ts';
import { Clock } from '../../server/platform/clock.ts';
import { readConfig, type Config } from '../../server/platform/config.ts';
import { openStore } from '../../server/store/open.ts';
import { requestLogger } from '../../server/plugins/request-log.ts';
import type { Store } from '../../server/store/store.ts';

/**
 * The service on a loopback port over a fresh embedded database, configured from `environment` as `npm run server`
 * reads it, with its log kept in `lines` (one JSON line each) for a test to read. Closed after the test.
 */
export async function serviceWithLog(
  t: TestContext,
  environment: Record<string, string>,
  level = 'info',
): Promise<{ base: string; lines: string[]; store: Store; config: Config }> {
  const store = await openStore({ dataDir: 'memory' });
  const lines: string[] = [];
  const config = readConfig({ PAYKIT_DATA_DIR: 'memory', ...environment });
  const app = await buildApp({
    store,
    clock: new Clock(),
    config,
    logger: { ...requestLogger(level), stream: { write: (line: string) => lines.push(line) } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.after(async () => {
    await app.close();
    await store.close();
  });
  const address = app.server.address();
  return {
    base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    lines,
    store,
    config,
  };
}
