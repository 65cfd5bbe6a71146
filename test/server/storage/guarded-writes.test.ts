import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startService, type TestService } from '../../support/service.ts';
import { TEST_DATABASE_URL, testDatabases } from '../../support/databases.ts';
import { approvedMerchant, nextOrderId, paidSale, TEST_CARD } from '../../support/payments.ts';
import { openStore } from '../../../server/store/open.ts';
import type { Store } from '../../../server/store/store.ts';
import type { MerchantAccount } from '../../../server/store/merchants.ts';
import { refundSale, voidSale } from '../../../server/services/refunds.ts';
import { capture, changeAuthorizedAmount } from '../../../server/services/preauthorizations.ts';
import { apply, readDecideWrite, UNLOCKED_ATTEMPTS, type Decided } from '../../../server/services/guarded.ts';
import { REFUND_ERRORS, VOID_ERRORS } from '../../../server/domain/refunds.ts';
import { Refusal } from '../../../server/domain/refusals.ts';
import { digest } from '../../../server/platform/secrets.ts';
import { eventRow } from '../../../server/store/events.ts';

/** A service's decision written as a route writes it: decided again while its guard no longer holds (services/guarded.ts). */
const written = <T>(store: Store, decide: (store: Store) => Promise<Decided<T>>): Promise<T> =>
  readDecideWrite(store, async (attempt) => {
    const { change, result } = await decide(attempt);
    await apply(attempt, change);
    return result;
  });

/**
 * A store whose unlocked reads of a transaction let `competitor` change it first, `times` times: the read hands back
 * what it saw before the change, as a read that lost a race does.
 */
function racedStore(
  store: Store,
  competitor: () => Promise<void>,
  times: number,
): { store: Store; lost: () => number } {
  let raced = 0;
  const transactions = new Proxy(store.transactions, {
    get(target, name, receiver) {
      // The reads a change is decided on (a unit of work's, on the last try, lock and go through a store of their own).
      if (name !== 'findForChange') return Reflect.get(target, name, receiver);
      return async (merchantId: string, id: string) => {
        const seen = await target.findForChange(merchantId, id);
        if (raced < times) {
          raced++;
          await competitor();
        }
        return seen;
      };
    },
  });
  const racing = new Proxy(store, {
    get: (target, name, receiver) => (name === 'transactions' ? transactions : Reflect.get(target, name, receiver)),
  });
  return { store: racing, lost: () => raced };
}

// PostgreSQL only: on SQLite, with one writer, the read is made inside the write's unit and no race can be lost.
if (testDatabases().includes('postgres')) {
  const database = 'postgres';
  describe('refunds, voids and captures decided on an unlocked read (postgres)', () => {
    let service: TestService;
    let merchantKey: string;
    let merchant: MerchantAccount;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey } = await approvedMerchant(service));
      merchant = (await service.store.merchants.findByKeyHash(service.client.clientId, digest(merchantKey)))!;
    });
    after(() => service.close());

    const refunded = async (sale: string) =>
      (await service.store.transactions.find(merchant.id, sale))!.refunded_amount;
    const refundEvents = async (sale: string) =>
      (await service.store.events.listForClient(service.client.clientId)).filter(
        (e) => e.event_type === 'payment.refund' && e.data.parent_transaction_id === sale,
      ).length;

    test('a refund whose sale was refunded after its read still lands while its amount fits, and writes once', async () => {
      const sale = await paidSale(service, merchantKey, '10.00');
      const raced = racedStore(
        service.store,
        () => written(service.store, (s) => refundSale(s, merchant, sale, '3.00', new Date())).then(() => undefined),
        1,
      );
      await written(raced.store, (s) => refundSale(s, merchant, sale, '4.00', new Date()));
      assert.equal(raced.lost(), 1);
      assert.equal(await refunded(sale), 700, 'both refunds, each once');
      assert.equal(await refundEvents(sale), 2);
    });

    test('a void whose sale was refunded after its read decides again, and is refused', async () => {
      const sale = await paidSale(service, merchantKey, '10.00');
      const raced = racedStore(
        service.store,
        () => written(service.store, (s) => refundSale(s, merchant, sale, '1.00', new Date())).then(() => undefined),
        1,
      );
      await assert.rejects(
        written(raced.store, (s) => voidSale(s, merchant, sale, new Date())),
        (error: Refusal) => error.message === VOID_ERRORS.refunded,
      );
      assert.equal((await service.store.transactions.find(merchant.id, sale))!.status, 'completed');
    });

    test('a refund that no longer fits after the race is refused, and writes nothing', async () => {
      const sale = await paidSale(service, merchantKey, '10.00');
      const raced = racedStore(
        service.store,
        () => written(service.store, (s) => refundSale(s, merchant, sale, '8.00', new Date())).then(() => undefined),
        1,
      );
      await assert.rejects(
        written(raced.store, (s) => refundSale(s, merchant, sale, '5.00', new Date())),
        (error: Refusal) => error.message === REFUND_ERRORS.overRemaining,
      );
      assert.equal(await refunded(sale), 800);
      assert.equal(await refundEvents(sale), 1);
    });

    test(`a refund whose sale changed ${UNLOCKED_ATTEMPTS} times after its reads takes the row lock, and lands once`, async () => {
      const sale = await paidSale(service, merchantKey, '10.00');
      // Settled, then its settlement time corrected: a change each time that the refund's decision read before it.
      let corrections = 0;
      const settle = async () =>
        service.store.transactions.update(sale, {
          settled_at: new Date(Date.UTC(2026, 0, 1, 0, 0, ++corrections)).toISOString(),
        });
      const raced = racedStore(service.store, settle, 100);
      const refund = await written(raced.store, (s) => refundSale(s, merchant, sale, '4.00', new Date()));
      assert.equal(raced.lost(), UNLOCKED_ATTEMPTS, 'the locked read is not raced');
      assert.equal(refund.record.type, 'Refund');
      assert.equal(await refunded(sale), 400);
      assert.equal(await refundEvents(sale), 1);
    });

    test(`a capture whose hold changed ${UNLOCKED_ATTEMPTS} times after its reads takes the row lock, and charges the amount held then`, async () => {
      const link = await service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount: '50.00', order_id: nextOrderId(), preauth: true },
      });
      const hold = (
        await service.api('POST', '/sandbox/pay', {
          json: { pay_link: link.body.data.pay_link, method: 'card', ...TEST_CARD },
        })
      ).body.data.transaction_id as string;
      let held = 50;
      const raise = async () =>
        void (await written(service.store, (s) =>
          changeAuthorizedAmount(s, merchant, hold, `${held}.00`, `${++held}.00`, new Date()),
        ));
      const raced = racedStore(service.store, raise, 100);
      const charged = await written(raced.store, (s) => capture(s, merchant, hold, undefined, new Date()));
      assert.equal(raced.lost(), UNLOCKED_ATTEMPTS, 'the locked read is not raced');
      assert.equal(charged.amount, `${50 + UNLOCKED_ATTEMPTS}.00`);
      assert.equal((await service.store.transactions.find(merchant.id, hold))!.status, 'captured');
    });

    test('two connection pools refunding one sale at once never return more than was charged', async () => {
      const second = await openStore({ dataDir: 'memory', databaseUrl: TEST_DATABASE_URL, pgSchema: service.schema });
      try {
        const sale = await paidSale(service, merchantKey, '100.00');
        const stores = [service.store, second];
        const outcomes = await Promise.allSettled(
          Array.from({ length: 40 }, (_, i) =>
            written(stores[i % 2]!, (s) => refundSale(s, merchant, sale, '7.00', new Date())),
          ),
        );
        assert.equal(
          outcomes.filter((o) => o.status === 'fulfilled').length,
          14,
          '14 × 7.00 = 98.00 fits, a 15th would not',
        );
        for (const o of outcomes)
          if (o.status === 'rejected') assert.equal((o.reason as Error).message, REFUND_ERRORS.overRemaining);
        assert.equal(await refunded(sale), 9800);
        assert.equal(await refundEvents(sale), 14);
      } finally {
        await second.close();
      }
    });
  });
}

for (const database of testDatabases()) {
  test(`a guarded change whose decision no longer stands writes nothing (${database})`, async (t) => {
    const service = await startService({ database });
    t.after(() => service.close());
    const { merchantKey } = await approvedMerchant(service);
    const merchant = (await service.store.merchants.findByKeyHash(service.client.clientId, digest(merchantKey)))!;
    const sale = await paidSale(service, merchantKey, '10.00');
    const read = (await service.store.transactions.find(merchant.id, sale))!;
    await written(service.store, (s) => refundSale(s, merchant, sale, '6.00', new Date()));
    const events = (await service.store.events.listForClient(service.client.clientId)).length;
    // Decided on the first read: 5.00 fits while at most 5.00 is refunded, and 6.00 is.
    const refundId = `txn_${randomUUID()}`;
    const wrote = await service.store.write({
      guards: [
        {
          table: 'transactions',
          where: {
            id: sale,
            merchant_id: merchant.id,
            status: read.status,
            amount: read.amount,
            settled_at: read.settled_at,
          },
          atMost: { refunded_amount: 500 },
          set: {},
          add: { refunded_amount: 500 },
        },
      ],
      rows: [
        {
          table: 'transactions',
          row: {
            ...read,
            id: refundId,
            parent_id: sale,
            kind: 'refund',
            amount: 500,
            gateway_ref: `gw_${randomUUID()}`,
          },
        },
        {
          table: 'ledger_entries',
          row: {
            merchant_id: merchant.id,
            transaction_id: refundId,
            type: 'refund',
            amount: -500,
            available_on: '2026-01-01',
            created_at: read.created_at,
          },
        },
      ],
      events: [eventRow(service.client.clientId, 'payment.refund', { parent_transaction_id: sale }, new Date())],
    });
    assert.equal(wrote, false);
    assert.deepEqual(await service.store.ledger.ofTransactions(merchant.id, [refundId]), []);
    assert.equal(await service.store.transactions.find(merchant.id, sale).then((s) => s!.refunded_amount), 600);
    assert.equal((await service.store.events.listForClient(service.client.clientId)).length, events);
    const page = await service.store.transactions.page(merchant.id, { view: 'listed' }, 10, { offset: 0 });
    assert.equal(page.items.filter((item) => item.parent_id === sale).length, 1, 'only the 6.00 refund');
  });
}
