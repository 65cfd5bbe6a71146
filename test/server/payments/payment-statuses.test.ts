import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { testDatabases } from '../../support/databases.ts';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant, nextOrderId, paidSale, partnerClient, TEST_CARD } from '../../support/payments.ts';
import { partnerApplication } from '../../support/fixtures.ts';
import type { Answer } from '../../support/http.ts';

interface Row {
  call: string;
  when: string;
  status: number;
  message: string;
}

/** The rows of docs/payments.md's "Statuses" table, backticks removed. */
function documentedStatuses(): Row[] {
  const text = readFileSync(new URL('../../../docs/payments.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('\n## Statuses\n'));
  assert.ok(section.length > 0, 'docs/payments.md has a Statuses section');
  const lines = section.split('\n').slice(1);
  const table = lines.slice(lines.findIndex((line) => line.startsWith('|')));
  const rows = table.slice(
    2,
    table.findIndex((line) => !line.startsWith('|')),
  );
  return rows.map((line) => {
    const [call, when, status, message] = line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim().replace(/^`|`$/g, ''));
    return { call: call!, when: when!.replace(/`/g, ''), status: Number(status), message: message! };
  });
}

type Scenario = (service: TestService) => Promise<Answer>;

const post = (service: TestService, path: string, json: Record<string, unknown>) => service.api('POST', path, { json });

async function authorization(service: TestService, merchantKey: string, amount = '50.00'): Promise<string> {
  const link = await post(service, '/requests', {
    merchant_key: merchantKey,
    amount,
    order_id: nextOrderId(),
    preauth: true,
  });
  const paid = await post(service, '/sandbox/pay', { pay_link: link.body.data.pay_link, method: 'card', ...TEST_CARD });
  assert.equal(paid.body.data.status, 'authorized', paid.text);
  return paid.body.data.transaction_id;
}

async function payWith(service: TestService, cardNumber: string): Promise<Answer> {
  const { merchantKey } = await approvedMerchant(service);
  const link = await post(service, '/requests', {
    merchant_key: merchantKey,
    amount: '10.00',
    order_id: nextOrderId(),
  });
  return post(service, '/sandbox/pay', {
    pay_link: link.body.data.pay_link,
    method: 'card',
    ...TEST_CARD,
    card_number: cardNumber,
  });
}

async function capturedAuthorization(service: TestService): Promise<{ merchantKey: string; id: string }> {
  const { merchantKey } = await approvedMerchant(service);
  const id = await authorization(service, merchantKey);
  assert.equal(
    (await post(service, '/preauth/capture', { merchant_key: merchantKey, transaction_id: id })).status,
    200,
  );
  return { merchantKey, id };
}

/** How to bring about each situation the table names, keyed by `call | when`. */
const SCENARIOS: Record<string, Scenario> = {
  "POST /requests | the merchant's onboarding is not completed": async (service) => {
    const { merchant_key } = await partnerClient(service).merchants.onboard(partnerApplication());
    return post(service, '/requests', { merchant_key, amount: '10.00', order_id: nextOrderId() });
  },
  'POST /requests | the order_id was used before': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const order_id = nextOrderId();
    assert.equal(
      (await post(service, '/requests', { merchant_key: merchantKey, amount: '10.00', order_id })).status,
      200,
    );
    return post(service, '/requests', { merchant_key: merchantKey, amount: '10.00', order_id });
  },
  'POST /requests | the total is over 999,999.99': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    return post(service, '/requests', { merchant_key: merchantKey, amount: '1000000.00', order_id: nextOrderId() });
  },
  'POST /sandbox/pay | card 4000000000000002': (service) => payWith(service, '4000000000000002'),
  'POST /sandbox/pay | card 4000000000009995': (service) => payWith(service, '4000000000009995'),
  'POST /sandbox/pay | a card number that is not a test card': (service) => payWith(service, '5555555555554444'),
  'POST /order/sales-return | no completed sale has that id': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    return post(service, '/order/sales-return', {
      merchant_key: merchantKey,
      transaction_id: 'txn_nope',
      amount: '1.00',
    });
  },
  'POST /order/sales-return | more than the sale': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const sale = await paidSale(service, merchantKey, '10.00');
    return post(service, '/order/sales-return', { merchant_key: merchantKey, transaction_id: sale, amount: '10.01' });
  },
  'POST /order/sales-return | more than what remains of the sale': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const sale = await paidSale(service, merchantKey, '10.00');
    assert.equal(
      (await post(service, '/order/sales-return', { merchant_key: merchantKey, transaction_id: sale, amount: '6.00' }))
        .status,
      200,
    );
    return post(service, '/order/sales-return', { merchant_key: merchantKey, transaction_id: sale, amount: '6.00' });
  },
  'POST /order/sales-return | the sale was fully refunded': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const sale = await paidSale(service, merchantKey, '10.00');
    assert.equal(
      (await post(service, '/order/sales-return', { merchant_key: merchantKey, transaction_id: sale, amount: '10.00' }))
        .status,
      200,
    );
    return post(service, '/order/sales-return', { merchant_key: merchantKey, transaction_id: sale, amount: '1.00' });
  },
  'POST /order/sales-void | the sale has settled': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const sale = await paidSale(service, merchantKey, '10.00');
    assert.equal((await post(service, '/sandbox/settle', { merchant_key: merchantKey })).status, 200);
    return post(service, '/order/sales-void', { merchant_key: merchantKey, transaction_id: sale });
  },
  'POST /order/sales-void | the sale has refunds': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const sale = await paidSale(service, merchantKey, '10.00');
    assert.equal(
      (await post(service, '/order/sales-return', { merchant_key: merchantKey, transaction_id: sale, amount: '1.00' }))
        .status,
      200,
    );
    return post(service, '/order/sales-void', { merchant_key: merchantKey, transaction_id: sale });
  },
  'POST /order/sales-void | the sale was voided': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const sale = await paidSale(service, merchantKey, '10.00');
    assert.equal(
      (await post(service, '/order/sales-void', { merchant_key: merchantKey, transaction_id: sale })).status,
      200,
    );
    return post(service, '/order/sales-void', { merchant_key: merchantKey, transaction_id: sale });
  },
  'POST /preauth/update | last_authorized_amount is not the amount authorized now': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const id = await authorization(service, merchantKey, '50.00');
    return post(service, '/preauth/update', {
      merchant_key: merchantKey,
      transaction_id: id,
      last_authorized_amount: '40.00',
      new_authorized_amount: '60.00',
    });
  },
  'POST /preauth/update | new_authorized_amount is the amount authorized now': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const id = await authorization(service, merchantKey, '50.00');
    return post(service, '/preauth/update', {
      merchant_key: merchantKey,
      transaction_id: id,
      last_authorized_amount: '50.00',
      new_authorized_amount: '50.00',
    });
  },
  'POST /preauth/capture | no authorization has that id': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    return post(service, '/preauth/capture', { merchant_key: merchantKey, transaction_id: 'txn_nope' });
  },
  'POST /preauth/capture | the authorization was captured': async (service) => {
    const { merchantKey, id } = await capturedAuthorization(service);
    return post(service, '/preauth/capture', { merchant_key: merchantKey, transaction_id: id });
  },
  'POST /preauth/void | the authorization was captured': async (service) => {
    const { merchantKey, id } = await capturedAuthorization(service);
    return post(service, '/preauth/void', { merchant_key: merchantKey, transaction_id: id });
  },
  'POST /preauth/capture | the authorization was voided': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const id = await authorization(service, merchantKey);
    assert.equal((await post(service, '/preauth/void', { merchant_key: merchantKey, transaction_id: id })).status, 200);
    return post(service, '/preauth/capture', { merchant_key: merchantKey, transaction_id: id });
  },
  'POST /customers/charge/{customerId} | the customer has no saved card': async (service) => {
    const { merchantKey } = await approvedMerchant(service);
    const customer = await post(service, '/customers/add', {
      merchant_key: merchantKey,
      first_name: 'Pat',
      last_name: 'Lee',
      email: 'pat@example.com',
    });
    assert.equal(customer.status, 200, customer.text);
    return post(service, `/customers/charge/${customer.body.data.customer_id}`, {
      merchant_key: merchantKey,
      amount: 10,
      order_id: nextOrderId(),
    });
  },
};

const rows = documentedStatuses();

test('every row of docs/payments.md’s status table has a scenario here, and every scenario a row', () => {
  assert.ok(rows.length >= 20, `${rows.length} rows`);
  const documented = rows.map((row) => `${row.call} | ${row.when}`);
  assert.deepEqual(
    documented.filter((key) => !SCENARIOS[key]),
    [],
    'rows without a scenario',
  );
  assert.deepEqual(
    Object.keys(SCENARIOS).filter((key) => !documented.includes(key)),
    [],
    'scenarios without a row',
  );
});

for (const database of testDatabases()) {
  describe(`the service answers what docs/payments.md says (${database})`, () => {
    let service: TestService;
    before(async () => {
      service = await startService({ database });
    });
    after(() => service.close());

    for (const row of rows) {
      test(`${row.call}, when ${row.when}: ${row.status}`, async () => {
        const scenario = SCENARIOS[`${row.call} | ${row.when}`];
        assert.ok(scenario, 'a scenario for this row');
        const answer = await scenario(service);
        assert.equal(answer.status, row.status, answer.text);
        assert.equal(answer.body.result, false);
        if (row.message) assert.equal(answer.body.message, row.message);
      });
    }
  });
}
