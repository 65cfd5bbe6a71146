import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant, nextOrderId, TEST_CARD } from '../../support/payments.ts';
import { testDatabases } from '../../support/databases.ts';
import { consoleCall, consoleSession, payment } from '../../support/console.ts';
import { waitUntil } from '../../support/wait.ts';
import {
  MESSAGES_PER_RECIPIENT_PER_HOUR,
  RECEIPTS_PER_TRANSACTION_PER_HOUR,
} from '../../../server/domain/receipt-limits.ts';

const PHONE = '+14155550142';
const EMAIL = 'shopper@example.com';
/** A second shopper, so that these tests stay within what one recipient may be sent an hour. */
const OTHER_PHONE = '+14155550143';
const OTHER_EMAIL = 'other.shopper@example.com';

type Message = { channel: string; recipient: string; text: string; pay_link: string; created_at: string };

/** Receipts for shoppers: by the request's channels into the outbox, with a working hosted page. */
for (const database of testDatabases()) {
  describe(`receipts for shoppers (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    let call: ReturnType<typeof consoleCall>;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
      call = consoleCall(
        service,
        (await consoleSession(service, merchantKey, { refunds: true, voids: true, receipts: true })).session_token,
      );
    });
    after(() => service.close());

    const outbox = async (): Promise<Message[]> => (await service.api('GET', '/sandbox/messages')).body.data;
    /** The receipts the outbox holds that name `what` in their text, newest first. */
    const receiptsAbout = async (amount: string) =>
      (await outbox()).filter((m) => m.pay_link.includes('/receipts/') && m.text.includes(amount));
    /** Receipts of calls through the API go after the answer: wait for them, at most 5 s. */
    const receiptsArriving = (amount: string, count = 1) =>
      waitUntil(
        async () => {
          const receipts = await receiptsAbout(amount);
          return receipts.length >= count && receipts;
        },
        { what: `${count} receipt(s) about ${amount}`, timeoutMs: 5000 },
      );
    const page = (link: string, headers: Record<string, string> = {}) =>
      service.request('GET', new URL(link).pathname + new URL(link).search, { headers });

    test('a card payment: a receipt by SMS and by e-mail, each with a link to a page that shows the payment', async () => {
      const orderId = nextOrderId();
      const id = await payment(service, merchantKey, '41.25', { orderId, phone: PHONE, email: EMAIL });
      const receipts = await receiptsAbout('41.25');
      assert.deepEqual(receipts.map((m) => [m.channel, m.recipient]).sort(), [
        ['email', EMAIL],
        ['sms', PHONE],
      ]);
      assert.match(
        receipts[0]!.text,
        /^Receipt from .+: payment of \$41\.25, Visa •••• 4242, \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}:\d{2}\s[AP]M UTC\. http:\/\/127\.0\.0\.1:\d+\/receipts\/rct_/,
      );
      const shown = await page(receipts[0]!.pay_link);
      assert.equal(shown.status, 200);
      assert.match(String(shown.headers['content-type']), /^text\/html/);
      assert.equal(shown.headers['cache-control'], 'no-store');
      for (const text of [
        'Payment receipt',
        '$41.25',
        'Visa •••• 4242',
        orderId,
        id,
        '<html lang="en">',
        '@media print',
      ])
        assert.ok(shown.text.includes(text), text);
      assert.doesNotMatch(shown.text, /4242424242424242|\b424242\b/, 'no card number beyond the last four');
      const details = await call('GET', `/${id}`);
      assert.equal(details.body.data.timeline.filter((s: { what: string }) => s.what === 'receipt_sent').length, 1);
    });

    test('a refund, a void and an undo each send their own receipt; the pages say which', async () => {
      const refunded = await payment(service, merchantKey, '52.10', { phone: PHONE });
      const refund = await service.api('POST', '/order/sales-return', {
        json: { merchant_key: merchantKey, transaction_id: refunded, amount: '2.10' },
      });
      assert.equal(refund.status, 200, refund.text);
      const [refundReceipt] = await receiptsArriving('refund of $2.10');
      assert.ok(refundReceipt, 'a refund receipt');
      assert.ok((await page(refundReceipt.pay_link)).text.includes('Refund receipt'));
      const voided = await payment(service, merchantKey, '53.20', { email: EMAIL });
      assert.equal((await call('POST', `/${voided}/void`)).status, 200);
      const [voidReceipt] = await receiptsAbout('cancelled payment of $53.20');
      assert.deepEqual([voidReceipt?.channel, voidReceipt?.recipient], ['email', EMAIL]);
      assert.ok((await page(voidReceipt!.pay_link)).text.includes('Cancellation receipt'));
      const undone = await payment(service, merchantKey, '54.30', { phone: PHONE });
      assert.equal((await call('POST', `/${undone}/undo`)).body.data.undone_as, 'void');
      assert.equal((await receiptsAbout('cancelled payment of $54.30')).length, 1);
    });

    test("the receipt page after a refund: number, description, tax, auth code, merchant contact, the state now and the refunds; the refund's receipt names its payment; amounts as in the message", async () => {
      const link = await service.api('POST', '/requests', {
        json: {
          merchant_key: merchantKey,
          amount: '1234.50',
          tax: '84.50',
          description: 'Two nights, room 12',
          order_id: nextOrderId(),
          phone_number: PHONE,
        },
      });
      assert.equal(link.status, 200, link.text);
      const paid = await service.api('POST', '/sandbox/pay', {
        json: { pay_link: link.body.data.pay_link, method: 'card', ...TEST_CARD },
      });
      assert.equal(paid.status, 200, paid.text);
      const id = paid.body.data.transaction_id as string;
      const charged = (await service.store.transactions.find(merchantId, id))!.amount;
      const [sale] = (await receiptsArriving(
        `payment of $${(charged / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
      ))!;
      assert.ok(sale, 'the message writes the amount as the page does');
      assert.equal((await call('POST', `/${id}/refund`, { amount: '234.50' })).status, 200);
      const [refund] = (await receiptsArriving('refund of $234.50'))!;
      const shown = (await page(sale.pay_link)).text;
      const stored = (await service.store.transactions.find(merchantId, id))!;
      for (const text of [
        'Receipt number',
        'Two nights, room 12',
        '<dt>Tax</dt><dd>$84.50</dd>',
        '<dt>Authorization code</dt>',
        stored.auth_code,
        '<dt>Contact</dt>',
        '<dt>Status</dt><dd>Paid; $234.50 refunded</dd>',
        '<dt>Refunds</dt>',
        '$234.50 · <time',
        ' UTC</time>',
        'data-local',
        '<script nonce="',
      ]) {
        assert.ok(shown.includes(text), `${text} in ${shown}`);
      }
      assert.match(shown, /<dt>Receipt number<\/dt><dd>[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}<\/dd>/);
      const refundPage = (await page(refund!.pay_link)).text;
      assert.ok(
        refundPage.includes('Refund receipt') &&
          refundPage.includes(
            `For the payment of $${(charged / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} on`,
          ) &&
          refundPage.includes(`<code>${id}</code>`),
        refundPage,
      );
      assert.ok(!refundPage.includes('<dt>Tax</dt>'), 'a refund carries no tax line of its own');
    });

    test('through the API, a refund’s receipt follows its answer, once for a retried keyed refund; a refused refund sends none', async () => {
      const sale = await payment(service, merchantKey, '55.40', { phone: PHONE });
      const refused = await service.api('POST', '/order/sales-return', {
        json: { merchant_key: merchantKey, transaction_id: sale, amount: '99.00' },
      });
      assert.equal(refused.status, 400, refused.text);
      const keyed = {
        json: { merchant_key: merchantKey, transaction_id: sale, amount: '5.40' },
        headers: { 'idempotency-key': `receipt-${nextOrderId()}` },
      };
      assert.equal((await service.api('POST', '/order/sales-return', keyed)).status, 200);
      const replayed = await service.api('POST', '/order/sales-return', keyed);
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      const receipts = await receiptsArriving('refund of $5.40');
      assert.deepEqual(
        receipts.map((m) => m.channel),
        ['sms'],
      );
      const voided = await payment(service, merchantKey, '56.40', { email: EMAIL });
      assert.equal(
        (
          await service.api('POST', '/order/sales-void', {
            json: { merchant_key: merchantKey, transaction_id: voided },
          })
        ).status,
        200,
      );
      assert.equal((await receiptsArriving('cancelled payment of $56.40')).length, 1);
      // The last call's receipt has had its time: nothing more came for the refund.
      assert.equal(
        (await receiptsAbout('refund of')).filter((m) => m.text.includes('5.40') || m.text.includes('99.00')).length,
        1,
      );
    });

    test('an ACH payment gets its receipt when the bank approves it, not while it waits; one the bank returns tells the shopper so', async () => {
      const waiting = await payment(service, merchantKey, '61.00', { ach: true, phone: PHONE });
      assert.equal((await receiptsAbout('61.00')).length, 0);
      await service.api('POST', '/update-ach', {
        json: { merchant_key: merchantKey, transaction_id: waiting, new_status: 'approved' },
      });
      const [receipt] = await receiptsAbout('61.00');
      assert.ok(receipt);
      assert.ok((await page(receipt.pay_link)).text.includes('Bank account •••• 6789'));
      const declined = await payment(service, merchantKey, '62.00', { ach: true, phone: OTHER_PHONE });
      await service.api('POST', '/update-ach', {
        json: { merchant_key: merchantKey, transaction_id: declined, new_status: 'declined' },
      });
      const returned = await receiptsAbout('62.00');
      assert.equal(returned.length, 1, 'written with the return, in its unit: no wait');
      assert.match(returned[0]!.text, /^Receipt from .+: returned bank payment of \$62\.00, Bank account •••• 6789, /);
      assert.equal(returned[0]!.recipient, OTHER_PHONE);
      const shown = (await page(returned[0]!.pay_link)).text;
      for (const text of ['Returned bank payment', '$62.00', 'Declined by the bank', declined])
        assert.ok(shown.includes(text), text);
    });

    test('a captured hold and a stored customer’s charge get a receipt, written with the charge (no wait), by the phone and address known', async () => {
      const hold = await payment(service, merchantKey, '63.00', {
        preauth: true,
        phone: OTHER_PHONE,
        email: OTHER_EMAIL,
      });
      assert.equal((await receiptsAbout('63.00')).length, 0, 'an authorization is not a payment');
      const captured = await service.api('POST', '/preauth/capture', {
        json: { merchant_key: merchantKey, transaction_id: hold, last_authorized_amount: '63.00' },
      });
      assert.equal(captured.status, 200, captured.text);
      const receipts = await receiptsAbout('63.00');
      assert.deepEqual(receipts.map((m) => [m.channel, m.recipient]).sort(), [
        ['email', OTHER_EMAIL],
        ['sms', OTHER_PHONE],
      ]);
      assert.match(receipts[0]!.text, /: payment of \$63\.00, Visa •••• 4242, /);
      assert.ok((await page(receipts[0]!.pay_link)).text.includes(captured.body.data.transaction_id));

      const consoleHold = await payment(service, merchantKey, '64.00', { preauth: true, phone: OTHER_PHONE });
      const captures = consoleCall(
        service,
        (await consoleSession(service, merchantKey, { captures: true })).session_token,
      );
      assert.equal((await captures('POST', `/${consoleHold}/capture`, { amount: '60.50' })).status, 200);
      assert.deepEqual(
        (await receiptsAbout('60.50')).map((m) => m.recipient),
        [OTHER_PHONE],
        'the console’s capture, of the amount captured',
      );

      const customer = await service.api('POST', '/customers/add', {
        json: {
          merchant_key: merchantKey,
          first_name: 'Ren',
          last_name: 'Stored',
          email: 'ren@example.com',
          phone_number: '+14155550178',
        },
      });
      const customerId = customer.body.data.customer_id;
      const link = await service.api('POST', `/requests/${customerId}`, {
        json: { merchant_key: merchantKey, amount: '10.00', order_id: nextOrderId() },
      });
      await service.api('POST', '/sandbox/pay', {
        json: { pay_link: link.body.data.pay_link, method: 'card', ...TEST_CARD },
      });
      const charged = await service.api('POST', `/customers/charge/${customerId}`, {
        json: { merchant_key: merchantKey, amount: '65.00', order_id: nextOrderId() },
      });
      assert.equal(charged.status, 200, charged.text);
      const charge = await receiptsAbout('65.00');
      assert.deepEqual(charge.map((m) => [m.channel, m.recipient]).sort(), [
        ['email', 'ren@example.com'],
        ['sms', '+14155550178'],
      ]);
      assert.ok((await page(charge[0]!.pay_link)).text.includes(charged.body.transaction_id));
      assert.equal(
        (await call('GET', `/${charged.body.transaction_id}`)).body.data.timeline.filter(
          (s: { what: string }) => s.what === 'receipt_sent',
        ).length,
        1,
      );
    });

    test("the hosted pay page's language is the receipt's; the page follows ?locale= and else the browser", async () => {
      const link = await service.api('POST', '/requests', {
        json: { merchant_key: merchantKey, amount: '71.50', order_id: nextOrderId(), phone_number: PHONE },
      });
      const path = new URL(link.body.data.pay_link).pathname;
      const paid = await service.request('POST', path, {
        form: { method: 'card', card_number: '4242424242424242', exp: '12/35', cvc: '123', locale: 'fr' },
      });
      assert.ok(paid.status < 400, paid.text.slice(0, 300));
      const [receipt] = await receiptsAbout('71,50');
      assert.match(
        receipt!.text,
        /^Reçu de .+ : paiement de 71,50\s\$US, Visa •••• 4242, \d{1,2} \S+ \d{4} à \d{2}:\d{2}:\d{2} UTC\. /,
      );
      const french = await page(receipt!.pay_link);
      assert.ok(
        french.text.includes('<html lang="fr">') &&
          french.text.includes('Reçu de paiement') &&
          french.text.includes('71,50'),
        french.text.slice(0, 500),
      );
      const german = await page(`${receipt!.pay_link}?locale=de`);
      assert.ok(german.text.includes('<html lang="de">') && german.text.includes('Zahlungsbeleg'));
      const unknownLanguage = await payment(service, merchantKey, '72.50', { phone: PHONE });
      const [plain] = await receiptsAbout('72.50');
      assert.ok(unknownLanguage);
      const spanish = await page(plain!.pay_link, { 'accept-language': 'es-MX,es;q=0.9' });
      assert.ok(spanish.text.includes('<html lang="es">') && spanish.text.includes('Recibo de pago'));
    });

    test('the page escapes what merchants and shoppers wrote, and an unknown token is the plain 404 page', async () => {
      const hostile = `<img src=x onerror="alert(1)">&'"`;
      await payment(service, merchantKey, '81.00', { orderId: hostile, phone: PHONE });
      const [receipt] = await receiptsAbout('81.00');
      const shown = await page(receipt!.pay_link);
      assert.ok(!shown.text.includes('<img src=x'), 'no markup from an order id');
      assert.ok(shown.text.includes('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;'), shown.text);
      assert.match(String(shown.headers['content-security-policy']), /default-src 'none'/);
      for (const token of ['rct_unknown-token-000000', 'nonsense', `rct_${'a'.repeat(60)}`]) {
        const missing = await service.request('GET', `/receipts/${token}`);
        assert.equal(missing.status, 404, token);
      }
    });

    test(`resends are bounded: ${RECEIPTS_PER_TRANSACTION_PER_HOUR} receipts of a transaction an hour, ${MESSAGES_PER_RECIPIENT_PER_HOUR} messages to a recipient`, async () => {
      const phone = '+14155550177';
      const email = 'bounded@example.com';
      const first = await payment(service, merchantKey, '63.41', { phone, email });
      // The payment's own receipt is the first of its three.
      for (let i = 1; i < RECEIPTS_PER_TRANSACTION_PER_HOUR; i++)
        assert.equal((await call('POST', `/${first}/receipt`)).status, 200);
      const again = await call('POST', `/${first}/receipt`);
      assert.deepEqual([again.status, again.body.code], [429, 'rate_limited'], again.text);
      assert.match(
        again.body.message,
        /^This transaction already had the 3 receipts an hour it may have: it can be sent again in \d+ seconds\.$/,
      );
      const retryAfter = Number(again.headers['retry-after']);
      assert.ok(retryAfter > 3500 && retryAfter <= 3600, String(retryAfter));
      assert.equal(
        (await receiptsAbout('63.41')).length,
        2 * RECEIPTS_PER_TRANSACTION_PER_HOUR,
        'nothing sent for the refused one',
      );

      // The phone has had a pay link's text and three receipts; a second payment's text makes five, and the receipt that
      // follows the payment goes anyway (a change's receipt is not held back), but nothing more is sent again.
      const second = await payment(service, merchantKey, '64.41', { phone });
      const capped = await call('POST', `/${second}/receipt`);
      assert.deepEqual([capped.status, capped.body.code], [429, 'rate_limited'], capped.text);
      assert.match(
        capped.body.message,
        /^\+14155550177 already had the 5 messages an hour it may get from this merchant: the receipt can be sent again in \d+ seconds\.$/,
      );
      const texts = (await outbox()).filter((m) => m.recipient === phone);
      assert.equal(texts.length, MESSAGES_PER_RECIPIENT_PER_HOUR + 1, 'the resend sent nothing');

      // An hour on (the sandbox clock), both may be sent again.
      await service.api('POST', '/sandbox/clock/advance', { json: { hours: 1.01 } });
      // The session expired with that hour: a new one, which the tests after this one use too.
      call = consoleCall(
        service,
        (await consoleSession(service, merchantKey, { refunds: true, voids: true, receipts: true })).session_token,
      );
      assert.equal((await call('POST', `/${first}/receipt`)).status, 200);
      assert.equal((await call('POST', `/${second}/receipt`)).status, 200);
    });

    test('receipts_enabled off: none sent, a resend is refused with the reason; on again: the resend works', async () => {
      const off = await service.api('PUT', '/widgets/', {
        json: { merchant_key: merchantKey, receipts_enabled: false },
      });
      assert.equal(off.body.data.receipts_enabled, false);
      // A phone of its own: the others have had their five messages this hour.
      const id = await payment(service, merchantKey, '91.00', { phone: '+14155550178' });
      assert.equal((await receiptsAbout('91.00')).length, 0);
      const refused = await call('POST', `/${id}/receipt`);
      assert.deepEqual(
        [refused.status, refused.body.code, refused.body.message],
        [409, 'conflict', 'Receipts are off for this merchant: turn them on with receipts_enabled in PUT /widgets/.'],
      );
      await service.api('PUT', '/widgets/', { json: { merchant_key: merchantKey, receipts_enabled: true } });
      const resent = await call('POST', `/${id}/receipt`);
      assert.equal(resent.status, 200, resent.text);
      assert.equal((await receiptsAbout('91.00')).length, 1);
      assert.ok(resent.body.data.timeline.some((s: { what: string }) => s.what === 'receipt_sent'));
      const noContact = await payment(service, merchantKey, '92.00');
      const nobody = await call('POST', `/${noContact}/receipt`);
      assert.deepEqual(
        [nobody.status, nobody.body.code, nobody.body.message],
        [409, 'conflict', 'This payment was not requested by SMS or e-mail, so there is nobody to send a receipt to.'],
      );
      const readOnly = consoleCall(service, (await consoleSession(service, merchantKey)).session_token);
      const forbidden = await readOnly('POST', `/${id}/receipt`);
      assert.deepEqual([forbidden.status, forbidden.body.code], [403, 'forbidden']);
      assert.equal((await receiptsAbout('91.00')).length, 1, 'nothing sent without the feature');
    });
  });
}
