import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { Clock } from '../../../server/platform/clock.ts';
import { readConfig } from '../../../server/platform/config.ts';
import type { Deps } from '../../../server/plugins/deps.ts';
import type { Store } from '../../../server/store/store.ts';
import { openTestStore, testDatabases } from '../../support/databases.ts';
import { send } from '../../support/http.ts';

// Routes reach the database through their request's unit only: the route plugins' options hold no store.
// @ts-expect-error Deps has no store
export const noStore: Deps['store'] = undefined;

for (const database of testDatabases()) {
  describe(`a request's unit (${database})`, () => {
    let store: Store;
    let close: () => Promise<void>;
    let app: FastifyInstance;
    let baseUrl: string;
    const attempts: boolean[] = [];
    before(async () => {
      ({ store, close } = await openTestStore(database));
      app = await buildApp({ store, clock: new Clock(), config: readConfig({ PAYKIT_DATA_DIR: 'memory' }) });
      // A write through the store a route reads with, beside its unit.
      app.post('/sneak', async (request) => {
        await request.unit.store.settings.set('sneaked', 'yes');
        return { written: true };
      });
      app.post('/sneak-unit', async (request) =>
        request.unit.store.transaction((tx) => tx.settings.set('sneaked', 'yes')),
      );
      // A change whose guard never holds: a 3-D Secure attempt that does not exist, used once.
      app.post('/lost', async (request) => {
        attempts.push(request.unit.store.isUnit);
        await request.unit.write({
          guards: [
            { table: 'payment_attempts', where: { token_hash: 'none', used_at: null }, set: { used_at: 'now' } },
          ],
          rows: [],
          events: [],
        });
        return { written: true };
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    after(async () => {
      await app.close();
      await close();
    });

    test('the store a route reads with refuses to write, and nothing is written', async () => {
      for (const path of ['/sneak', '/sneak-unit'])
        assert.equal((await send(baseUrl, 'POST', path, { json: {} })).status, 500, path);
      assert.equal(await store.settings.get('sneaked'), undefined);
    });

    test('a handler whose change lost its guard runs again, reading afresh; after three lost races, once in a unit of work', async () => {
      const answer = await send(baseUrl, 'POST', '/lost', { json: {} });
      assert.equal(answer.status, 500, 'a guard lost under lock is a bug, not a refusal');
      assert.deepEqual(attempts, [false, false, false, true]);
    });
  });
}
