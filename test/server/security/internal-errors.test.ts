import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../../server/app.ts';
import { Clock } from '../../../server/platform/clock.ts';
import { readConfig } from '../../../server/platform/config.ts';
import { openStore } from '../../../server/store/open.ts';
import { send } from '../../support/http.ts';

test('an unexpected failure is a 500 that says nothing of internals', async (t) => {
  const store = await openStore({ dataDir: 'memory' });
  const logged: string[] = [];
  const app = await buildApp({
    store,
    clock: new Clock(),
    config: readConfig({ PAYKIT_DATA_DIR: 'memory' }),
    logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } },
  });
  app.get('/explode', async () => {
    throw new Error('SQLITE_CORRUPT: table merchants at /var/lib/secret/path');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.after(async () => {
    await app.close();
    await store.close();
  });
  const address = app.server.address();
  const answer = await send(
    `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    'GET',
    '/explode',
  );
  assert.equal(answer.status, 500);
  assert.deepEqual(answer.body, {
    result: false,
    message: 'Something went wrong on our side. Try again in a moment.',
    code: 'service_error',
  });
  assert.ok(!answer.text.includes('SQLITE') && !answer.text.includes('/var/lib'));
  assert.ok(
    logged.some((line) => line.includes('SQLITE_CORRUPT')),
    'the cause is logged for the operator',
  );
});
