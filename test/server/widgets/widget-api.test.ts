import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant, nextOrderId, paidSale, partnerClient, TEST_CARD } from '../../support/payments.ts';

describe('the widget API', () => {
  let service: TestService;
  let merchantKey: string;
  let publicKey: string;
  before(async () => {
    service = await startService();
    ({ merchantKey } = await approvedMerchant(service));
    const merchants = (await service.api('GET', '/merchant')).body.data;
    publicKey = merchants[0].public_data.public_key;
  });
  after(() => service.close());

  const widget = (method: string, path: string, options: Parameters<TestService['request']>[2] = {}) =>
    service.request(method, `/api/v1/widgets/${publicKey}${path}`, options);

  test('settings: defaults, then what PUT /widgets/ sets, validated', async () => {
    const first = await widget('GET', '/settings');
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.data, {
      merchant_name: 'Blue Bottle Cafe',
      environment: 'sandbox',
      button_label: 'Pay',
      primary_color: '#4f46e5',
      text_color: '#ffffff',
    });
    const put = await service.api('PUT', '/widgets/', {
      json: {
        merchant_key: merchantKey,
        button_label: 'Pay now',
        primary_color: '#0a7',
        allowed_origins: ['https://shop.example'],
      },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.data, {
      button_label: 'Pay now',
      primary_color: '#0a7',
      text_color: '#ffffff',
      allowed_origins: ['https://shop.example'],
      receipts_enabled: true,
      logo: null,
    });
    assert.equal((await widget('GET', '/settings')).body.data.button_label, 'Pay now');
    for (const [fields, message] of [
      [{ primary_color: 'blue' }, 'primary_color must be a hex colour such as #4f46e5.'],
      [{ button_label: ' ' }, 'button_label must be 1 to 40 characters.'],
      [
        { allowed_origins: ['https://shop.example/path'] },
        'allowed_origins: "https://shop.example/path" must be an http(s) origin without a path, e.g. https://shop.example.',
      ],
      [{ allowed_origins: ['shop'] }, 'allowed_origins: "shop" is not an origin such as https://shop.example.'],
    ] as const) {
      const bad = await service.api('PUT', '/widgets/', { json: { merchant_key: merchantKey, ...fields } });
      assert.deepEqual([bad.status, bad.body.message], [400, message]);
    }
    assert.equal(
      (await service.api('PUT', '/widgets/', { json: { button_label: 'x' }, auth: null })).status,
      401,
      'settings need the client credentials',
    );
    await service.api('PUT', '/widgets/', { json: { merchant_key: merchantKey, allowed_origins: [] } });
  });

  test('CORS follows the allowed origins, preflight included', async () => {
    const anyPage = await widget('OPTIONS', '/pay-links', {
      headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(anyPage.status, 204);
    assert.equal(
      anyPage.headers['access-control-allow-origin'],
      'https://anywhere.example',
      'none set: any page in the sandbox',
    );
    await service.api('PUT', '/widgets/', {
      json: { merchant_key: merchantKey, allowed_origins: ['https://shop.example'] },
    });
    const allowed = await widget('OPTIONS', '/pay-links', { headers: { origin: 'https://shop.example' } });
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://shop.example');
    assert.match(String(allowed.headers['access-control-allow-methods']), /POST/);
    const other = await widget('GET', '/settings', { headers: { origin: 'https://evil.example' } });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    assert.equal(other.headers.vary, 'Origin');
    await service.api('PUT', '/widgets/', { json: { merchant_key: merchantKey, allowed_origins: [] } });
  });

  test('a link paid by bank reads pending until the bank decides: paid when it approves, declined when it refuses', async () => {
    for (const [decision, expected] of [
      ['approved', 'paid'],
      ['declined', 'declined'],
    ] as const) {
      const { link_id, pay_link } = (await widget('POST', '/pay-links', { json: { amount: '9.00' } })).body.data;
      const submitted = await service.api('POST', '/sandbox/pay', {
        json: { pay_link, method: 'ach', routing_number: '110000000', account_number: '000123456789', name: 'Ann Lee' },
      });
      assert.equal(submitted.body.data.status, 'pending', submitted.text);
      const pending = await widget('GET', `/pay-links/${link_id}`);
      assert.deepEqual(
        [pending.body.data.status, pending.body.data.transaction_id],
        ['pending', submitted.body.data.transaction_id],
      );
      const decided = await service.api('POST', '/update-ach', {
        json: { merchant_key: merchantKey, transaction_id: submitted.body.data.transaction_id, new_status: decision },
      });
      assert.equal(decided.status, 200, decided.text);
      assert.equal((await widget('GET', `/pay-links/${link_id}`)).body.data.status, expected);
    }
  });

  test('pay links: created by public key, and their outcome read back', async () => {
    const created = await widget('POST', '/pay-links', { json: { amount: '12.50', description: 'Mug' } });
    assert.equal(created.status, 200, created.text);
    const { link_id, pay_link, order_id, amount } = created.body.data;
    assert.match(order_id, /^w_/);
    assert.equal(amount, '12.50');
    const open = await widget('GET', `/pay-links/${link_id}`);
    assert.deepEqual([open.body.data.status, open.body.data.transaction_id], ['open', null]);
    const paid = await service.api('POST', '/sandbox/pay', {
      json: { pay_link, method: 'card', card_number: '4242424242424242', exp_month: 12, exp_year: 2035, cvc: '123' },
    });
    const after = await widget('GET', `/pay-links/${link_id}`);
    assert.deepEqual([after.body.data.status, after.body.data.transaction_id], ['paid', paid.body.data.transaction_id]);
    const bad = await widget('POST', '/pay-links', { json: { amount: 'free' } });
    assert.deepEqual(
      [bad.status, bad.body.message],
      [400, 'amount must be a number with at most two decimals and no currency sign, such as "25.00".'],
    );
    const unknown = await service.request('GET', '/api/v1/widgets/pk_nope/settings', {
      headers: { origin: 'https://shop.example' },
    });
    assert.deepEqual(
      [unknown.status, unknown.body.message, unknown.headers['access-control-allow-origin']],
      [404, 'Unknown public key.', 'https://shop.example'],
    );
    assert.equal((await widget('GET', '/pay-links/lnk_nope')).status, 404);
  });

  test('payment requests text the pay link; the public key can do nothing else', async () => {
    const sent = await widget('POST', '/payment-requests', {
      json: { amount: '8.00', recipient_phone: '(415) 555-0177' },
    });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.message, 'A text with the pay link was sent to +14155550177.');
    const [sms] = (await service.api('GET', '/sandbox/messages')).body.data;
    assert.deepEqual([sms.recipient, sms.pay_link], ['+14155550177', sent.body.data.pay_link]);
    const badPhone = await widget('POST', '/payment-requests', { json: { amount: '8.00', recipient_phone: '12' } });
    assert.equal(badPhone.status, 400);
    assert.equal(
      (
        await service.request('GET', '/api/v1/merchant', {
          headers: { authorization: `Basic ${Buffer.from(`${publicKey}:`).toString('base64')}` },
        })
      ).status,
      401,
    );
    assert.equal(
      (await service.request('POST', `/api/v1/widgets/${publicKey}/sessions`, { json: {} })).status,
      404,
      'no session minting by public key',
    );
  });

  test('the transactions listing takes only a valid, unexpired session token of that merchant', async () => {
    const sale = await paidSale(service, merchantKey, '20.00');
    const session = await service.api('POST', '/widgets/sessions', { json: { merchant_key: merchantKey } });
    assert.equal(session.status, 200, session.text);
    const { session_token, expires_at } = session.body.data;
    assert.match(session_token, /^wst_/);
    assert.ok(Date.parse(expires_at) - service.clock.now().getTime() <= 15 * 60 * 1000);
    const list = await service.request('GET', '/api/v1/widgets/transactions?perPage=5', {
      headers: { authorization: `Bearer ${session_token}`, origin: 'https://any.example' },
    });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.headers['access-control-allow-origin'], 'https://any.example');
    const item = list.body.data.items.find((t: { transaction_id: string }) => t.transaction_id === sale);
    assert.deepEqual(
      { ...item, created_date: undefined, order_id: undefined, voidable_until: undefined },
      {
        transaction_id: sale,
        created_date: undefined,
        amount: '20.00',
        net_amount: '19.12',
        card_brand: 'Visa',
        last_four: '4242',
        status: 'completed',
        type: 'sale',
        order_id: undefined,
        refunded_amount: '0.00',
        refundable_amount: '20.00',
        voidable_until: undefined,
        capturable: false,
        dispute_id: null,
      },
    );
    assert.equal(
      Date.parse(item.voidable_until),
      Date.parse(item.created_date) + 48 * 3_600_000,
      'voidable until it settles on its own',
    );
    const refusals: [Record<string, string>, string][] = [
      [{}, 'no token'],
      [{ authorization: 'Bearer wst_forged' }, 'forged'],
      [{ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 'basic'],
      [{ authorization: `Bearer ${publicKey}` }, 'public key'],
    ];
    for (const [headers, what] of refusals) {
      const refused = await service.request('GET', '/api/v1/widgets/transactions', { headers });
      assert.deepEqual(
        [refused.status, refused.body.message, refused.headers['www-authenticate']],
        [401, 'The session token is missing, expired or not valid: ask your server for a new one.', 'Bearer'],
        what,
      );
    }
    const other = await approvedMerchant(service);
    const otherSession = (await service.api('POST', '/widgets/sessions', { json: { merchant_key: other.merchantKey } }))
      .body.data.session_token;
    const theirs = await service.request('GET', '/api/v1/widgets/transactions', {
      headers: { authorization: `Bearer ${otherSession}` },
    });
    assert.ok(
      !theirs.body.data.items.some((t: { transaction_id: string }) => t.transaction_id === sale),
      'a token reads its own merchant only',
    );
    service.clock.advance(16 * 60 * 1000);
    const expired = await service.request('GET', '/api/v1/widgets/transactions', {
      headers: { authorization: `Bearer ${session_token}` },
    });
    assert.equal(expired.status, 401);
  });

  test('the listing (the payments console, #32) shows every sale, refund, void and ACH return, but no hold; its filters tell them apart', async () => {
    const paykit = partnerClient(service);
    const { merchantKey: key } = await approvedMerchant(service);
    const link = async (extra: Record<string, unknown> = {}) =>
      (await paykit.payments.request({ merchant_key: key, amount: '30.00', order_id: nextOrderId(), ...extra }))
        .pay_link;
    const completed = await paidSale(service, key, '30.00');
    const voided = await paidSale(service, key, '31.00');
    await paykit.transactions.void({ merchant_key: key, transaction_id: voided });
    const refunded = await paidSale(service, key, '32.00');
    await paykit.transactions.refund({ merchant_key: key, transaction_id: refunded, amount: '2.00' });
    const ach = await paykit.sandbox.pay({
      pay_link: await link(),
      method: 'ach',
      routing_number: '110000000',
      account_number: '12345678',
      name: 'Ann Lee',
    });
    const hold = await paykit.sandbox.pay({ pay_link: await link({ preauth: true }), method: 'card', ...TEST_CARD });
    await assert.rejects(
      paykit.sandbox.pay({ pay_link: await link(), method: 'card', ...TEST_CARD, card_number: '4000000000000002' }),
      /declined/i,
    );

    const token = (await paykit.widgets.createSession(key)).session_token;
    const list = await service.request('GET', '/api/v1/widgets/transactions?perPage=100', {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(list.status, 200, list.text);
    const shown = list.body.data.items.map((t: { transaction_id: string; status: string; type: string }) => [
      t.transaction_id,
      t.status,
      t.type,
    ]);
    const row = (id: string) => shown.find(([shownId]: string[]) => shownId === id);
    assert.deepEqual(
      [row(completed), row(refunded), row(voided), row(ach.transaction_id)],
      [
        [completed, 'completed', 'sale'],
        [refunded, 'completed', 'sale'],
        [voided, 'voided', 'sale'],
        [ach.transaction_id, 'pending', 'sale'],
      ],
    );
    assert.deepEqual(
      new Set(shown.map(([, , type]: string[]) => type)),
      new Set(['sale', 'refund', 'void']),
      'and the refund and void records',
    );
    assert.equal(row(hold.transaction_id), undefined, 'a hold is not money that moved: kind=hold lists holds');
    assert.equal(list.body.data.totalCount, shown.length);
    // What the table showed before #32, the standing sales, is one filter away: a partly refunded sale is "refunded".
    const standing = await service.request('GET', '/api/v1/widgets/transactions?kind=sale&status=completed', {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.deepEqual(
      standing.body.data.items.map((t: { transaction_id: string }) => t.transaction_id),
      [completed],
    );
  });

  test('the pay page may be framed by, and reports to, an allowed origin only', async () => {
    const { pay_link } = (await widget('POST', '/pay-links', { json: { amount: '3.00' } })).body.data;
    const path = new URL(pay_link).pathname;
    const framed = await service.request('GET', `${path}?origin=${encodeURIComponent('https://shop.example')}`);
    assert.match(String(framed.headers['content-security-policy']), /frame-ancestors 'self' https:\/\/shop\.example;/);
    assert.ok(framed.text.includes('value="https://shop.example"'), 'the origin travels with the form');
    await service.api('PUT', '/widgets/', {
      json: { merchant_key: merchantKey, allowed_origins: ['https://other.example'] },
    });
    const refused = await service.request('GET', `${path}?origin=${encodeURIComponent('https://shop.example')}`);
    assert.match(String(refused.headers['content-security-policy']), /frame-ancestors 'self';/);
    assert.ok(!refused.text.includes('https://shop.example'), 'a page not allowed gets neither framing nor messages');
    await service.api('PUT', '/widgets/', { json: { merchant_key: merchantKey, allowed_origins: [] } });
  });

  test('a rate limit per key and caller answers 429 with Retry-After', async () => {
    let limited: Awaited<ReturnType<typeof widget>> | undefined;
    for (let i = 0; i < 70 && !limited; i++) {
      const answer = await widget('POST', '/pay-links', { json: { amount: '1.00' } });
      if (answer.status === 429) limited = answer;
    }
    assert.ok(limited, 'the 61st write in a minute is refused');
    assert.match(limited.body.message, /^Too many requests: try again in \d+ seconds\.$/);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal((await widget('GET', '/settings')).status, 200, 'reads have their own, larger budget');
  });

  test('a preflight with an unknown key passes, so the page can read the 404', async () => {
    const preflight = await service.request('OPTIONS', '/api/v1/widgets/pk_unknown/pay-links', {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    assert.deepEqual(
      [preflight.status, preflight.headers['access-control-allow-origin']],
      [204, 'https://shop.example'],
    );
  });

  test('GET /paykit.js serves the script-tag loader to any page, and the modules it loads', async () => {
    const script = await service.request('GET', '/paykit.js');
    assert.equal(script.status, 200);
    assert.match(String(script.headers['content-type']), /^text\/javascript/);
    assert.equal(script.headers['access-control-allow-origin'], '*');
    assert.ok(script.text.includes('data-public-key') || script.text.includes('publicKey'), 'it reads the tag’s key');
    assert.ok(script.text.length > 1000);
    assert.ok(script.text.includes('pay-error'), 'the loader carries the pay button');
    const chunk = /import\("\.\/paykit\/(qrcode-\w+\.js)"\)/.exec(script.text)?.[1];
    assert.ok(chunk, 'the QR code encoder is a separate file, imported on demand');
    assert.ok(!/"qrcode-/.test(script.text), 'and not among what the loader fetches');
    const lazy = await service.request('GET', `/paykit/${chunk}`);
    assert.equal(lazy.status, 200);
    assert.match(String(lazy.headers['cache-control']), /immutable/);
    assert.equal((await service.request('GET', '/paykit-nope.js')).status, 404);
    assert.equal((await service.request('GET', '/paykit/nope.js')).status, 404);
  });
});
