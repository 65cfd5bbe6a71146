import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { processPartner, startServiceProcess } from '../support/process.ts';
import { send } from '../support/http.ts';
import { testDatabases } from '../support/databases.ts';
import { storageEnv } from '../support/storage-env.ts';
import { validApplication } from '../support/fixtures.ts';

const { env: credentials, auth } = processPartner('restart');

for (const database of testDatabases()) {
  describe(`a restart keeps the data (${database})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups) await cleanup();
    });

    test('start, write, stop, start, read', async () => {
      const { env, cleanup } = await storageEnv(database);
      cleanups.push(cleanup);
      const first = await startServiceProcess({ ...env, ...credentials });
      const created = await send(first.baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth });
      assert.equal(created.status, 200, created.text);
      const { merchant_key } = created.body.data;
      const customer = await send(first.baseUrl, 'POST', '/api/v1/customers/add', {
        json: { merchant_key, first_name: 'Per', last_name: 'Sist', email: 'per@sist.co' },
        auth,
      });
      assert.equal(await first.stop('SIGTERM'), 0, first.output());

      const second = await startServiceProcess({ ...env, ...credentials });
      try {
        const read = await send(second.baseUrl, 'GET', `/api/v1/customers/${customer.body.data.customer_id}`, {
          json: { merchant_key },
          auth,
        });
        assert.equal(read.status, 200, read.text);
        assert.equal(read.body.data.customer_email, 'per@sist.co');
        const merchants = await send(second.baseUrl, 'GET', '/api/v1/merchant', { auth });
        assert.equal(merchants.body.data.length, 1);
      } finally {
        await second.stop();
      }
    });
  });
}

test('PAYKIT_DATA_DIR=memory keeps nothing', async () => {
  const first = await startServiceProcess({ PAYKIT_DATA_DIR: 'memory', ...credentials });
  await send(first.baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth });
  await first.stop();
  const second = await startServiceProcess({ PAYKIT_DATA_DIR: 'memory', ...credentials });
  try {
    assert.deepEqual((await send(second.baseUrl, 'GET', '/api/v1/merchant', { auth })).body.data, []);
  } finally {
    await second.stop();
  }
});

test('a wrong setting stops the start with a message', async () => {
  const { run } = await import('../support/process.ts');
  const result = await run(['server/main.ts'], { PAYKIT_ENV: 'staging', PAYKIT_DATA_DIR: 'memory' });
  assert.equal(result.code, 1);
  assert.match(result.output, /Paykit could not start: PAYKIT_ENV must be "sandbox" or "production", not "staging"/);
});
