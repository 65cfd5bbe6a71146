import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestStore, testDatabases } from '../support/databases.ts';
import { compiledQuery, compiledUpdateById } from '../../server/store/compiled-query.ts';
import type { Executor } from '../../server/store/schema.ts';
import type { Store } from '../../server/store/store.ts';
import { createClient } from '../../server/services/clients.ts';

const clientName = compiledQuery((db: Executor, id: string) => db.selectFrom('clients').select('name').where('id', '=', id));
const stores: { store: Store; close: () => Promise<void> }[] = [];
const executorOf = (store: Store) => (store as unknown as { db: Executor }).db;

before(async () => {
  for (const database of testDatabases()) stores.push(await openTestStore(database));
});
after(async () => {
  for (const { close } of stores) await close();
});

test('one compiled query serves every call with its own values, on each dialect in one process', async () => {
  for (const { store } of stores) {
    const a = await createClient(store, 'Alpha', new Date());
    const b = await createClient(store, 'Beta', new Date());
    assert.deepEqual(await clientName(executorOf(store), a.clientId), [{ name: 'Alpha' }]);
    assert.deepEqual(await clientName(executorOf(store), b.clientId), [{ name: 'Beta' }]);
    assert.deepEqual(await clientName(executorOf(store), 'cli_nobody'), []);
  }
});

test('refuses a parameter that chooses the query’s shape instead of being bound', async () => {
  const shaped = compiledQuery((db: Executor, column: string) => db.selectFrom('clients').select(column as 'name'));
  await assert.rejects(shaped(executorOf(stores[0]!.store), 'name'), /every parameter must be a bound value/);
});

test('a compiled update changes only the row it names, with the columns each call gives, on each dialect', async () => {
  const rename = compiledUpdateById<{ name?: string; public_key?: string }>('clients');
  for (const { store } of stores) {
    const a = await createClient(store, 'Gamma', new Date());
    const b = await createClient(store, 'Delta', new Date());
    assert.equal(await rename(executorOf(store), a.clientId, { name: 'Gamma 2' }), 1);
    // Another set of columns is another statement; undefined fields are left out, as Kysely leaves them.
    assert.equal(await rename(executorOf(store), a.clientId, { name: 'Gamma 3', public_key: 'pk_client_gamma3', ...{ unset: undefined } }), 1);
    assert.equal(await rename(executorOf(store), 'cli_nobody', { name: 'Nobody' }), 0);
    let row = await store.clients.findById(a.clientId);
    assert.deepEqual([row?.name, row?.public_key], ['Gamma 3', 'pk_client_gamma3']);
    // The same columns in another order, then one of them left undefined: each value still goes to its own column.
    assert.equal(await rename(executorOf(store), a.clientId, { public_key: 'pk_client_gamma4', name: 'Gamma 4' }), 1);
    row = await store.clients.findById(a.clientId);
    assert.deepEqual([row?.name, row?.public_key], ['Gamma 4', 'pk_client_gamma4']);
    assert.equal(await rename(executorOf(store), a.clientId, { public_key: undefined, name: 'Gamma 5' }), 1);
    row = await store.clients.findById(a.clientId);
    assert.deepEqual([row?.name, row?.public_key], ['Gamma 5', 'pk_client_gamma4']);
    assert.equal((await store.clients.findById(b.clientId))?.name, 'Delta');
  }
});
