import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { validApplication } from '../../support/fixtures.ts';
import { approvedMerchant, eventsAbout, nextOrderId, TEST_CARD } from '../../support/payments.ts';
import { newToken } from '../../../server/platform/secrets.ts';

const SUCCESS_FIELDS = [
  'amount',
  'brand',
  'fee_amount',
  'last_four',
  'link_id',
  'merchant_id',
  'net_amount',
  'order_id',
  'transaction_id',
];

for (const database of testDatabases()) {
  describe(`payment requests and paying them (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
    });
    after(() => service.close());

    const ask = (fields: Record<string, unknown> = {}) =>
      service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount: '100.00', order_id: nextOrderId(), ...fields },
      });
    const pay = (payLink: string, fields: Record<string, unknown> = TEST_CARD) =>
      service.api('POST', '/sandbox/pay', { json: { pay_link: payLink, method: 'card', ...fields } });

    test('POST /requests answers order_id, link_id and pay_link, and sends the SMS and e-mail', async () => {
      const orderId = nextOrderId();
      const answer = await ask({
        order_id: orderId,
        phone_number: '(415) 555-0199',
        email: 'payer@example.com',
        name: 'Pat Payer',
        description: 'Two croissants',
      });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(
        answer.body.message,
        'Payment request created; an SMS and an e-mail with the pay link has been sent.',
      );
      const { order_id, link_id, pay_link } = answer.body.data;
      assert.equal(order_id, orderId);
      assert.match(link_id, /^lnk_/);
      assert.ok(pay_link.startsWith(`${service.baseUrl}/pay/pl_`), pay_link);

      const messages = await service.api('GET', '/sandbox/messages');
      assert.equal(messages.status, 200);
      const [email, sms] = messages.body.data;
      assert.deepEqual(
        [sms.channel, sms.recipient, email.channel, email.recipient],
        ['sms', '+14155550199', 'email', 'payer@example.com'],
      );
      assert.ok(sms.text.includes(pay_link) && sms.text.includes('$100.00'), sms.text);
      assert.ok(
        email.text.startsWith('Hello Pat Payer,') &&
          email.text.includes('Two croissants') &&
          email.text.includes(pay_link),
      );
      assert.equal(sms.pay_link, pay_link);
    });

    test('every field is validated with a message that says what to send', async () => {
      const cases: [Record<string, unknown>, number, string][] = [
        [{ amount: undefined }, 400, 'Invalid request: amount is required.'],
        [{ amount: '0' }, 400, 'amount must be more than zero: send the amount to move, such as "25.00".'],
        [{ amount: '-5' }, 400, 'amount must be more than zero: send the amount to move, such as "25.00".'],
        [
          { amount: '10.999' },
          400,
          'amount must be a number with at most two decimals and no currency sign, such as "25.00".',
        ],
        [
          { amount: 'ten' },
          400,
          'amount must be a number with at most two decimals and no currency sign, such as "25.00".',
        ],
        [
          { amount: '$10.00' },
          400,
          'amount must be a number with at most two decimals and no currency sign, such as "25.00".',
        ],
        [{ order_id: 'x'.repeat(101) }, 400, 'Invalid request: order_id must NOT have more than 100 characters.'],
        [{ order_id: '   ' }, 400, 'order_id must not be blank.'],
        // Stored exactly as sent or refused, never trimmed (issue 41).
        [
          { order_id: ' A-17 ' },
          400,
          'order_id must not begin or end with spaces: it is stored exactly as sent, so send it without them.',
        ],
        [
          { order_id: 'A-17\n' },
          400,
          'order_id must not begin or end with spaces: it is stored exactly as sent, so send it without them.',
        ],
        [{ order_id: 'A\t17' }, 400, 'order_id must not hold control characters (tabs, line breaks).'],
        [{ invoice_number: 'INV-1' }, 400, 'invoice_number must be letters and digits only, at most 100.'],
        [
          { allow_card: false, allow_ach: false },
          400,
          'allow_card and allow_ach are both false: allow at least one way to pay.',
        ],
        [
          { discount: '150.00' },
          400,
          'The discount leaves nothing to pay: amount - discount + surcharge + tax is -50.00.',
        ],
        [{ tax: '1.5.0' }, 400, 'tax must be decimal text with at most two decimals, e.g. "10.50".'],
        [{ email: 'nope' }, 400, 'email "nope" is not an e-mail address.'],
        [
          { phone_number: '12' },
          400,
          'phone_number "12" is not a phone number: send "+" and the country code, or ten digits.',
        ],
        [
          { preauth: true, allow_card: false },
          400,
          'A preauthorization needs a card: allow_card must not be false when preauth is true.',
        ],
        [{ merchant_key: 'mk_unknown' }, 404, 'merchant_key does not match any of your merchants: check the key.'],
      ];
      for (const [fields, status, message] of cases) {
        const answer = await ask(fields);
        assert.equal(answer.status, status, `${JSON.stringify(fields)}: ${answer.text}`);
        assert.deepEqual(answer.body, {
          result: false,
          message,
          code: status === 404 ? 'not_found' : 'invalid_request',
        });
      }
    });

    test('order ids are unique per merchant, and only approved merchants take payments', async () => {
      const spaced = `Order  ${nextOrderId()} (table 4)`;
      const kept = await ask({ order_id: spaced });
      assert.equal(kept.body.data.order_id, spaced, 'stored and answered exactly as sent');
      const orderId = nextOrderId();
      assert.equal((await ask({ order_id: orderId })).status, 200);
      const again = await ask({ order_id: orderId });
      assert.equal(again.status, 409);
      assert.equal(
        again.body.message,
        `order_id "${orderId}" was already used for this merchant: order ids are unique.`,
      );
      const pending = (await service.api('POST', '/onboarding', { json: validApplication() })).body.data.merchant_key;
      const refused = await service.api('POST', '/requests', {
        json: { merchant_key: pending, amount: '5.00', order_id: nextOrderId() },
      });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.message, "The merchant's onboarding is not completed yet, so it cannot take payments.");
    });

    test('a card payment completes the sale with the published fee and writes payment.success', async () => {
      const link = (await ask({ amount: '100.00' })).body.data;
      const paid = await pay(link.pay_link);
      assert.equal(paid.status, 200, paid.text);
      assert.equal(paid.body.data.status, 'approved');
      const id = paid.body.data.transaction_id;
      const [item] = (await service.api('GET', `/merchant/transactions/${id}`, { json: { merchant_key: merchantKey } }))
        .body.data;
      assert.deepEqual(
        {
          amount: item.amount,
          fee_percentage: item.fee_percentage,
          net_amount: item.net_amount,
          status: item.status,
          type: item.type,
        },
        { amount: '100.00', fee_percentage: '2.9000000', net_amount: 96.8, status: 'completed', type: 'sale' },
      );
      assert.deepEqual(item.other_details, {
        authcode: item.other_details.authcode,
        cardType: 'Visa',
        lastFourDigits: '4242',
      });
      assert.match(item.other_details.authcode, /^[A-Z0-9]{6}$/);

      const [event] = await eventsAbout(service, 'payment.success', id);
      assert.ok(event);
      assert.deepEqual(Object.keys(event.data).sort(), SUCCESS_FIELDS);
      assert.deepEqual(event.data, {
        transaction_id: id,
        merchant_id: merchantId,
        amount: 100,
        net_amount: 96.8,
        fee_amount: 3.2,
        order_id: link.order_id,
        last_four: '4242',
        brand: 'Visa',
        link_id: link.link_id,
      });

      const twice = await pay(link.pay_link);
      assert.equal(twice.status, 409);
      assert.equal(twice.body.message, 'This pay link has already been paid.');
    });

    test('discount, surcharge, tax and a passed-on fee make the total', async () => {
      const link = (await ask({ amount: '100.00', discount: '10.00', surcharge: '2.50', tax: '7.50', pass_fee: true }))
        .body.data;
      const id = (await pay(link.pay_link)).body.data.transaction_id;
      const [item] = (await service.api('GET', `/merchant/transactions/${id}`, { json: { merchant_key: merchantKey } }))
        .body.data;
      // Subtotal 100.00 - 10.00 + 2.50 + 7.50 = 100.00; fee 2.9% + 0.30 = 3.20 is added; the merchant nets 100.00.
      assert.equal(item.amount, '103.20');
      assert.equal(item.net_amount, 100);
    });

    test('declines, 3-D Secure, bad cards and closed methods', async () => {
      const declined = await pay((await ask()).body.data.pay_link, { ...TEST_CARD, card_number: '4000000000000002' });
      assert.deepEqual(
        [declined.status, declined.body],
        [402, { result: false, message: 'Your card was declined.', code: 'card_declined' }],
      );
      const poor = await pay((await ask()).body.data.pay_link, { ...TEST_CARD, card_number: '4000 0000 0000 9995' });
      assert.deepEqual([poor.status, poor.body.message], [402, 'Your card has insufficient funds.']);

      const challenged = (await ask()).body.data.pay_link;
      const unanswered = await pay(challenged, { ...TEST_CARD, card_number: '4000000000003220' });
      assert.deepEqual(
        [unanswered.status, unanswered.body.message],
        [400, 'This payment needs a 3-D Secure challenge: send three_ds "pass" or "fail".'],
      );
      const failed = await pay(challenged, { ...TEST_CARD, card_number: '4000000000003220', three_ds: 'fail' });
      assert.deepEqual(
        [failed.status, failed.body.message],
        [402, 'The card issuer could not verify you (3-D Secure failed).'],
      );
      const passed = await pay(challenged, { ...TEST_CARD, card_number: '4000000000003220', three_ds: 'pass' });
      assert.equal(passed.status, 200, 'a declined attempt leaves the link open for another try');

      const required = (await ask({ require_3ds: true })).body.data.pay_link;
      assert.equal((await pay(required)).status, 400, 'require_3ds challenges even 4242');
      assert.equal((await pay(required, { ...TEST_CARD, three_ds: 'pass' })).status, 200);

      const link = (await ask()).body.data.pay_link;
      const cases: [Record<string, unknown>, string][] = [
        [{ ...TEST_CARD, card_number: '4242424242424241' }, 'The card number is not valid.'],
        [
          { ...TEST_CARD, card_number: '5555555555554444' },
          'In the sandbox, use a test card such as 4242 4242 4242 4242.',
        ],
        [{ ...TEST_CARD, exp_year: 2020 }, 'The card has expired.'],
        [{ ...TEST_CARD, cvc: '12' }, 'The security code must be 3 digits.'],
        [{ card_number: '4242424242424242' }, 'A card payment needs card_number, exp_month, exp_year and cvc.'],
        [{ ...TEST_CARD, three_ds: 'maybe' }, 'Invalid request: three_ds must be one of: "pass", "fail".'],
      ];
      for (const [fields, message] of cases) {
        const answer = await pay(link, fields);
        assert.deepEqual([answer.status, answer.body.message], [400, message], JSON.stringify(fields));
      }
      const achOnly = (await ask({ allow_card: false })).body.data.pay_link;
      assert.equal((await pay(achOnly)).body.message, 'This payment request does not accept card payments.');
      const cardOnly = (await ask({ allow_ach: false })).body.data.pay_link;
      const ach = await service.api('POST', '/sandbox/pay', {
        json: { pay_link: cardOnly, method: 'ach', routing_number: '110000000', account_number: '000123456789' },
      });
      assert.equal(ach.body.message, 'This payment request does not accept bank (ACH) payments.');
      const method = await service.api('POST', '/sandbox/pay', { json: { pay_link: cardOnly, method: 'cash' } });
      assert.equal(method.body.message, 'Invalid request: method must be one of: "card", "ach".');
    });

    test('an ACH payment waits, and bad bank details are refused', async () => {
      const link = (await ask()).body.data.pay_link;
      const bad = await service.api('POST', '/sandbox/pay', {
        json: { pay_link: link, method: 'ach', routing_number: '110000001', account_number: '000123456789' },
      });
      assert.deepEqual(
        [bad.status, bad.body.message],
        [400, 'The routing number is not a valid nine-digit ABA routing number.'],
      );
      const short = await service.api('POST', '/sandbox/pay', {
        json: { pay_link: link, method: 'ach', routing_number: '110000000', account_number: '12' },
      });
      assert.equal(short.body.message, 'The account number must be 4 to 17 digits.');
      const paid = await service.api('POST', '/sandbox/pay', {
        json: { pay_link: link, method: 'ach', routing_number: '110000000', account_number: '000123456789' },
      });
      assert.equal(paid.status, 200, paid.text);
      assert.equal(paid.body.data.status, 'pending');
      const [item] = (
        await service.api('GET', `/merchant/transactions/${paid.body.data.transaction_id}`, {
          json: { merchant_key: merchantKey },
        })
      ).body.data;
      assert.deepEqual(
        [item.status, item.method, item.fee_percentage, item.other_details.lastFourDigits],
        ['pending', 'ach', '0.8000000', '6789'],
      );
      assert.equal(item.net_amount, 99.2);
      assert.deepEqual(
        await eventsAbout(service, 'payment.success', paid.body.data.transaction_id),
        [],
        'ACH succeeds only when approved',
      );
    });

    test('links expire after seven days; unknown and other clients’ links are not found', async () => {
      const link = (await ask()).body.data.pay_link;
      service.clock.advance(7 * 24 * 3600 * 1000 + 1000);
      const late = await pay(link);
      assert.deepEqual(
        [late.status, late.body.message],
        [409, 'This pay link has expired: ask the merchant for a new one.'],
      );
      const unknown = await pay(`${service.baseUrl}/pay/pl_madeup`);
      assert.deepEqual([unknown.status, unknown.body.message], [404, 'This pay link is not valid.']);
      const fresh = (await ask()).body.data.pay_link;
      const other = await service.newClient('Other');
      const foreign = await service.api('POST', '/sandbox/pay', {
        json: { pay_link: fresh, method: 'card', ...TEST_CARD },
        auth: { id: other.clientId, secret: other.secretKey },
      });
      assert.equal(foreign.status, 404);
    });

    test('a pay link starts with the time it was made, and only the whole token opens it', async () => {
      const { pay_link: timed, link_id: timedId } = (await ask()).body.data;
      const token = timed.slice(timed.lastIndexOf('/') + 1);
      assert.match(token, /^pl_[0-9a-f]{12}[A-Za-z0-9_-]{43}$/);
      const made = parseInt(token.slice(3, 15), 16);
      assert.ok(Math.abs(made - Date.now()) < 60_000, `made at ${new Date(made).toISOString()}`);
      // Without its time, or with another token's random part after it, a token names nothing.
      for (const other of [`pl_${token.slice(15)}`, `pl_${token.slice(3, 15)}${newToken('pl_').slice(3)}`]) {
        assert.equal((await service.request('GET', `/pay/${other}`)).status, 404, other);
        assert.equal((await pay(`${service.baseUrl}/pay/${other}`)).status, 404, other);
      }
      const paid = await pay(timed);
      assert.equal(paid.status, 200, paid.text);
      assert.equal(
        (await eventsAbout(service, 'payment.success', paid.body.data.transaction_id))[0]?.data.link_id,
        timedId,
      );
    });

    test('QR links: a link to the QR image that pays like a pay link', async () => {
      const answer = await service.api('POST', '/order/api-qr_code_link', {
        json: { merchant_key: merchantKey, amount: '12.00', order_id: nextOrderId() },
      });
      assert.equal(answer.status, 200, answer.text);
      const { qr_code_link, sales_id, order_id } = answer.body.data;
      assert.match(qr_code_link, /\/pay\/pl_[\w-]+\/qr\.png$/);
      assert.match(sales_id, /^txn_/);
      assert.ok(order_id);
      const paid = await pay(qr_code_link);
      assert.equal(paid.body.data.transaction_id, sales_id, 'the sale gets the id announced as sales_id');
      const [item] = (await service.api('GET', '/merchant/transactions', { json: { merchant_key: merchantKey } })).body
        .data;
      assert.equal(item.transaction_id, sales_id);
    });

    test('no card number or CVC reaches the database', async () => {
      await pay((await ask()).body.data.pay_link, { ...TEST_CARD, cvc: '987' });
      const db = (
        service.store as unknown as {
          db: { selectFrom: (t: string) => { selectAll: () => { execute: () => Promise<unknown[]> } } };
        }
      ).db;
      for (const table of [
        'transactions',
        'payment_requests',
        'payment_methods',
        'payment_attempts',
        'events',
        'messages',
        'idempotency_keys',
      ]) {
        const rows = JSON.stringify(await db.selectFrom(table).selectAll().execute());
        assert.ok(!rows.includes('4242424242424242'), `${table} holds a card number`);
        // A CVC as a field or a value, quoted in the row or in a JSON column (escaped there); not "cvc" inside a random
        // token of a pay link in a message, which once made this fail.
        assert.ok(!/\\?"(987|cvc)\\?"/i.test(rows), `${table} holds a CVC`);
      }
    });
  });
}
