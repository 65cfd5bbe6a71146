import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../../server/services/clients.ts';
import { send } from '../../support/http.ts';
import { serviceWithLog } from '../../support/logged-service.ts';
import { validApplication } from '../../support/fixtures.ts';

test('no card number, CVC, secret or pay-link token reaches the logs, at the most verbose level', async (t) => {
  const { base, lines, store, config } = await serviceWithLog(t, {}, 'trace');
  config.publicUrl = base;
  const client = await createClient(store, 'Log test', new Date());
  const auth = { id: client.clientId, secret: client.secretKey };
  const merchant = (await send(base, 'POST', '/api/v1/onboarding', { json: validApplication(), auth })).body.data;
  await send(base, 'POST', '/api/v1/approve-merchant', { json: { merchant_id: merchant.merchant_id }, auth });
  const links = [];
  for (let i = 0; i < 2; i++) {
    links.push(
      (
        await send(base, 'POST', '/api/v1/requests', {
          json: { merchant_key: merchant.merchant_key, amount: '10.00', order_id: `log-${i}` },
          auth,
        })
      ).body.data.pay_link,
    );
  }
  await send(base, 'POST', '/api/v1/sandbox/pay', {
    json: {
      pay_link: links[0],
      method: 'card',
      card_number: '4242424242424242',
      exp_month: 12,
      exp_year: 2035,
      cvc: '987',
    },
    auth,
  });
  const token = new URL(links[1]).pathname.split('/')[2]!;
  const page = await send(base, 'POST', `/pay/${token}`, {
    form: { method: 'card', card_number: '4000000000000002', exp: '12 / 35', cvc: '654' },
  });
  assert.equal(page.status, 402, 'the page answered the declined card');
  await send(base, 'GET', `/api/v1/customers?merchant_key=${merchant.merchant_key}`, { auth });

  const log = lines.join('\n');
  assert.ok(lines.length > 10, 'requests were logged');
  for (const secret of ['4242424242424242', '4000000000000002', client.secretKey, merchant.merchant_key, token]) {
    assert.ok(!log.includes(secret), `the log holds ${secret.slice(0, 6)}…`);
  }
  // A CVC is three digits that could match a timing by chance; no field of a body is logged at all.
  assert.ok(!/cvc|card_number|"body"/i.test(log), 'the log holds request bodies');
});
