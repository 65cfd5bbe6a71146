import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { COUNTED_WRITES, roundTripsPerWrite, type CountedWrite } from '../../support/round-trips.ts';
import { StatementCounter } from '../../../server/store/open.ts';
import { receiptChange } from '../../../server/services/receipts.ts';
import { approvedMerchant, paidSale } from '../../support/payments.ts';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../../support/databases.ts';
import { ledgerHistorySql } from '../../support/history.ts';

/**
 * Round trips to PostgreSQL per write, counted by the pool's connections (every statement, BEGIN and COMMIT
 * included): a count, not a timing, so it is the same on any machine (issue 31). Before: 6, 8, 7, 9, 7, 7. A keyed
 * write claims its key, then its one statement also stores its sealed answer (docs/decisions.md). A refund's or
 * void's receipt for the shopper goes after the answer; the merchant measured has receipts off, so none runs beside
 * the next count.
 */
const MOST: Record<CountedWrite, number> = {
  'POST /requests': 1,
  'POST /requests with an Idempotency-Key': 2,
  refund: 2,
  'refund with an Idempotency-Key': 3,
  void: 2,
  capture: 2,
};

if (testDatabases().includes('postgres')) {
  describe('round trips per write (postgres)', () => {
    const statements = new StatementCounter();
    let service: TestService;
    before(async () => (service = await startService({ database: 'postgres', statements })));
    after(() => service.close());

    test('each write makes at most its share of round trips', async () => {
      const measured = await roundTripsPerWrite(service, statements);
      console.log('round trips per request:', measured);
      for (const call of COUNTED_WRITES)
        assert.ok(measured[call] <= MOST[call], `${call}: ${measured[call]} round trips, at most ${MOST[call]}`);
    });

    test('a receipt is decided by one read: most payments have nobody to send one to', async () => {
      const { merchantKey, merchantId } = await approvedMerchant(service);
      const receipt = async (saleId: string) => {
        const before = statements.count;
        const change = await receiptChange(service.store, merchantId, saleId, {
          now: new Date(),
          publicUrl: service.baseUrl,
        });
        if (change) await service.store.write(change);
        return { sent: change !== undefined, roundTrips: statements.count - before };
      };
      assert.deepEqual(await receipt(await paidSale(service, merchantKey)), { sent: false, roundTrips: 1 });
      // Sent: that read, the language of an earlier receipt, and one statement writing the receipt and its e-mail (6
      // when the receipt was a unit of work: BEGIN, two inserts, COMMIT).
      assert.deepEqual(await receipt(await paidSale(service, merchantKey, '10.00', { email: 'payer@example.com' })), {
        sent: true,
        roundTrips: 3,
      });
    });

    test('a payout sweeps its entries 1,000 a statement, each far inside the statement timeout', async () => {
      // One UPDATE of a large merchant's entries ran past the 2.5 s statement timeout under load: never paid out.
      const beside = new pg.Client({
        connectionString: TEST_DATABASE_URL,
        options: `-c search_path=${service.schema}`,
      });
      await beside.connect();
      const payout = async (entries: number) => {
        const { merchantKey, merchantId } = await approvedMerchant(service);
        await service.api('PUT', '/payouts/settings', { json: { merchant_key: merchantKey, interval: 'manual' } });
        const history = { clientId: service.client.clientId, merchantId, count: entries, availableOn: '2025-10-01' };
        for (const statement of ledgerHistorySql('postgres', { ...history, prefix: `p${entries}` }))
          await beside.query(statement);
        const before = statements.count;
        const made = await service.api('POST', '/payouts', { json: { merchant_key: merchantKey } });
        assert.equal(made.body.data.entry_count, entries, made.text);
        return statements.count - before;
      };
      try {
        assert.equal((await payout(2_500)) - (await payout(500)), 2, 'two more steps of 1,000');
      } finally {
        await beside.end();
      }
    });
  });
}
