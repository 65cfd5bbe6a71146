import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, nextOrderId } from '../../support/payments.ts';
import type { Executor } from '../../../server/store/schema.ts';

const FAILING_ADDRESS = 'fails-on-write@example.com';

/**
 * Makes the database refuse a message to FAILING_ADDRESS: a request that texts it fails inside its transaction,
 * after it has reserved its order id and written its payment request.
 */
async function refuseMessagesTo(service: TestService, database: string): Promise<void> {
  const db = (service.store as unknown as { db: Executor }).db;
  if (database === 'sqlite') {
    await sql
      .raw(
        `CREATE TRIGGER refuse_marked_message BEFORE INSERT ON messages WHEN NEW.recipient = '${FAILING_ADDRESS}'
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION refuse_marked_message() RETURNS trigger AS $$
      BEGIN IF NEW.recipient = '${FAILING_ADDRESS}' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END
    $$ LANGUAGE plpgsql`,
    )
    .execute(db);
  await sql
    .raw(
      'CREATE TRIGGER refuse_marked_message BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_marked_message()',
    )
    .execute(db);
}

for (const database of testDatabases()) {
  // Whether the embedded database put the failing request in a group with others depends on timing; that a failing unit
  // in a group undoes only its own writes is shown deterministically in test/store/group-commit.test.ts.
  describe(`concurrent writes where one request fails inside its transaction (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey } = await approvedMerchant(service));
      await refuseMessagesTo(service, database);
    });
    after(() => service.close());

    const request = (orderId: string, email: string) =>
      service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount: '3.00', order_id: orderId, email },
      });

    test('twenty pay links at once, one refused by the database: it alone is undone, the others are answered 200 and kept', async () => {
      const orders = Array.from({ length: 20 }, () => nextOrderId());
      const answers = await Promise.all(
        orders.map((orderId, i) => request(orderId, i === 7 ? FAILING_ADDRESS : `payer${i}@example.com`)),
      );
      answers.forEach((answer, i) => assert.equal(answer.status, i === 7 ? 500 : 200, answer.text));

      const messages = await service.store.messages.newestFirst(service.client.clientId, 100);
      for (const [i, orderId] of orders.entries()) {
        const sent = messages.filter((m) => m.body.includes(`(order ${orderId})`));
        assert.equal(sent.length, i === 7 ? 0 : 1, `the e-mail of order ${i}`);
      }
      // Its order id and its payment request (unique per order id) were written in the same transaction, and undone
      // with it: the same order can be asked for again.
      const retried = await request(orders[7]!, 'payer7@example.com');
      assert.equal(retried.status, 200, retried.text);
    });
  });
}
