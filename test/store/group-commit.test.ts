import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestStore, testDatabases } from '../support/databases.ts';
import type { Store } from '../../server/store/store.ts';
import type { Executor } from '../../server/store/schema.ts';
import { createClient } from '../../server/services/clients.ts';

const now = () => new Date();
const customer = (id: string, merchantId: string) => ({
  id,
  merchant_id: merchantId,
  first_name: 'Gro',
  last_name: 'Up',
  email: `${id}@example.com`,
  phone: '',
  created_at: now().toISOString(),
});

for (const database of testDatabases()) {
  describe(`concurrent units of work, one of which fails (${database})`, () => {
    let store: Store;
    let close: () => Promise<void>;
    let clientId: string;
    let merchantId: string;
    before(async () => {
      ({ store, close } = await openTestStore(database));
      clientId = (await createClient(store, 'Group commit test', now())).clientId;
      merchantId = `m_group_${database}`;
      await store.merchants.insert({
        id: merchantId,
        client_id: clientId,
        company_id: null,
        status: 'completed',
        business_name: 'Group',
        email: 'g@example.com',
        first_name: 'G',
        last_name: 'C',
        phone: '',
        website: '',
        merchant_key_hash: null,
        public_key: `pk_group_${database}`,
        application: null,
        created_at: now().toISOString(),
        submitted_at: null,
        approved_at: null,
        declined_at: null,
        decline_reason: null,
      });
    });
    after(() => close());

    test('the failing unit loses only its own writes; the others commit and succeed', async () => {
      // Started together, so on the embedded database they run in one group: each writes a customer and an event,
      // and the sixth throws after writing both.
      let firstSeenByLast: unknown = 'not read';
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          store.transaction(async (tx) => {
            await tx.customers.insert(customer(`c_group_${database}_${i}`, merchantId));
            await tx.events.add(clientId, 'merchant.approval', { merchant_id: merchantId, unit: i }, now());
            if (i === 5) throw new Error('unit 5 fails after writing');
            // Outside the units, the first unit's write is not committed yet while the last runs: they share a group.
            if (i === 9) firstSeenByLast = await store.customers.findById(merchantId, `c_group_${database}_0`);
            return i;
          }),
        ),
      );
      assert.deepEqual(
        outcomes.map((o) => o.status),
        [...Array(5).fill('fulfilled'), 'rejected', ...Array(4).fill('fulfilled')],
      );
      assert.match(String((outcomes[5] as PromiseRejectedResult).reason), /unit 5 fails after writing/);
      for (let i = 0; i < 10; i++) {
        const found = await store.customers.findById(merchantId, `c_group_${database}_${i}`);
        assert.equal(found !== undefined, i !== 5, `customer ${i}`);
      }
      const units = (await store.events.listForClient(clientId)).map((e) => e.data.unit).sort();
      assert.deepEqual(units, [0, 1, 2, 3, 4, 6, 7, 8, 9]);
      if (database === 'sqlite') assert.equal(firstSeenByLast, undefined, 'the ten units ran in one group');
    });

    test('a read is never blocked behind an open group: it answers while a unit of work still holds the writer', async () => {
      const id = `c_reader_${database}`;
      await store.customers.insert(customer(id, merchantId));
      let finish!: () => void;
      const held = new Promise<void>((resolve) => (finish = resolve));
      let unitRunning!: () => void;
      const running = new Promise<void>((resolve) => (unitRunning = resolve));
      const unit = store.transaction(async (tx) => {
        await setLastName(tx, id, 'Held');
        unitRunning();
        await held;
      });
      await running;
      // The unit is open (its write not committed): a read outside it answers now, with the state before the unit.
      const read = await Promise.race([
        store.customers.findById(merchantId, id),
        new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 2_000)),
      ]);
      finish();
      await unit;
      assert.notEqual(read, 'blocked', 'the read waited for the group');
      assert.equal((read as { last_name: string }).last_name, 'Up');
      assert.equal((await store.customers.findById(merchantId, id))!.last_name, 'Held');
    });

    // On PostgreSQL this takes a row lock (money rules use findForUpdate); on SQLite the units of a group run one after another.
    test(
      'a unit sees the writes of the units before it in its group, so a value read then written stays right',
      { skip: database !== 'sqlite' },
      async () => {
        const id = `c_counter_${database}`;
        await store.customers.insert(customer(id, merchantId));
        // Twenty read-then-write units on one row: each must see every earlier one's write, or appends are lost.
        await Promise.all(
          Array.from({ length: 20 }, () =>
            store.transaction(async (tx) => {
              const current = await tx.customers.findById(merchantId, id);
              await setLastName(tx, id, `${current!.last_name}x`);
            }),
          ),
        );
        assert.equal((await store.customers.findById(merchantId, id))!.last_name, `Up${'x'.repeat(20)}`);
      },
    );

    test("a statement sent through a unit's handle after the unit ended is refused, and writes nothing", async () => {
      let kept!: Store;
      await store.transaction(async (tx) => {
        kept = tx;
      });
      const late = `c_late_${database}`;
      await assert.rejects(kept.customers.insert(customer(late, merchantId)), /committed/);
      await assert.rejects(setLastName(kept, `c_group_${database}_0`, 'Late'), /committed/);
      assert.equal(await store.customers.findById(merchantId, late), undefined);
      assert.equal((await store.customers.findById(merchantId, `c_group_${database}_0`))!.last_name, 'Up');
      // Nor does it run inside the unit that holds the writer now.
      const during = `c_late_during_${database}`;
      await store.transaction(async (tx) => {
        await tx.customers.insert(customer(during, merchantId));
        await assert.rejects(kept.customers.insert(customer(late, merchantId)), /committed/);
        await assert.rejects(setLastName(kept, during, 'Late'), /committed/);
      });
      assert.equal(await store.customers.findById(merchantId, late), undefined);
      assert.equal((await store.customers.findById(merchantId, during))!.last_name, 'Up');
    });

    test('writes outside a unit, one statement each, share a group: a failing one is undone whole, the others commit', async () => {
      const db = (store as unknown as { db: Executor }).db;
      const id = (i: number) => `c_alone_${database}_${i}`;
      await store.customers.insert(customer(id(0), merchantId));
      const outcomes = await Promise.allSettled([
        store.customers.insert(customer(id(1), merchantId)),
        // Two rows in one statement, the second taken: the first must not stay behind.
        db
          .insertInto('customers')
          .values([customer(id(2), merchantId), customer(id(0), merchantId)])
          .execute(),
        store.customers.insert(customer(id(3), merchantId)),
        // A statement that fails at its first row. On SQLite the id is the one the first unit of this very group
        // wrote; on PostgreSQL the five run at once on a pool, so only a row committed before them conflicts surely.
        store.customers.insert(customer(database === 'sqlite' ? id(1) : id(0), merchantId)),
        store.customers.insert(customer(id(4), merchantId)),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled'],
      );
      for (const [i, kept] of [
        [0, true],
        [1, true],
        [2, false],
        [3, true],
        [4, true],
      ] as const) {
        assert.equal((await store.customers.findById(merchantId, id(i))) !== undefined, kept, `customer ${i}`);
      }
    });

    test("a unit's nested transaction joins it: they commit as one, or not at all", async () => {
      const [kept, undone] = [`c_joined_${database}`, `c_joined_undone_${database}`];
      await store.transaction(async (unit) => {
        await unit.customers.insert(customer(kept, merchantId));
        await unit.transaction((tx) => setLastName(tx, kept, 'Joined'));
      });
      await assert.rejects(
        store.transaction(async (unit) => {
          await unit.transaction((tx) => tx.customers.insert(customer(undone, merchantId)));
          throw new Error('undo');
        }),
        /undo/,
      );
      assert.equal((await store.customers.findById(merchantId, kept))!.last_name, 'Joined');
      assert.equal(await store.customers.findById(merchantId, undone), undefined);
    });
  });
}

/** The store has no customer update (the API never changes a customer); the test writes one directly. */
async function setLastName(tx: Store, id: string, lastName: string): Promise<void> {
  const db = (tx as unknown as { db: Executor }).db;
  await db.updateTable('customers').set({ last_name: lastName }).where('id', '=', id).execute();
}
