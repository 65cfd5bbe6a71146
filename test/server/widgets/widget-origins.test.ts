import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant } from '../../support/payments.ts';
import { validApplication } from '../../support/fixtures.ts';
import { WIDGET_TEXTS_PER_PHONE_PER_HOUR } from '../../../server/services/widgets.ts';

const SHOP = 'https://shop.example';
const EVIL = 'https://evil.example';

for (const environment of ['sandbox', 'production'] as const) {
  describe(`a merchant's public key makes nothing for another site's page (${environment})`, () => {
    let service: TestService;
    let merchantKey: string;
    let publicKey: string;
    before(async () => {
      service = await startService({ environment });
      // Production has no sandbox approval: the merchant is approved in the store, as the operator review would.
      ({ merchantKey } =
        environment === 'sandbox' ? await approvedMerchant(service) : await productionMerchant(service));
      publicKey = (await service.api('GET', '/merchant')).body.data[0].public_data.public_key;
    });
    after(() => service.close());

    const widget = (path: string, origin: string | undefined, json: unknown, contentType = 'application/json') =>
      service.request('POST', `/api/v1/widgets/${publicKey}${path}`, {
        raw: JSON.stringify(json),
        headers: { 'content-type': contentType, ...(origin ? { origin } : {}) },
      });
    const texts = async () => (await service.store.messages.newestFirst(service.client.clientId, 1000)).length;
    const setOrigins = (allowed_origins: string[]) =>
      service.api('PUT', '/widgets/', { json: { merchant_key: merchantKey, allowed_origins } });

    test('text/plain and form bodies (no CORS preflight) are refused with 415, and nothing is sent', async () => {
      const before = await texts();
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const answer = await widget(
          '/payment-requests',
          SHOP,
          { amount: '1.00', recipient_phone: '+14155550177' },
          type,
        );
        assert.deepEqual(
          [answer.status, answer.body],
          [415, { result: false, message: 'Widget calls send application/json.', code: 'unsupported_content_type' }],
          type,
        );
      }
      assert.equal(await texts(), before);
    });

    test('with allowed origins set, a POST from any other origin, or with none, is refused with 403', async () => {
      await setOrigins([SHOP]);
      const before = await texts();
      const evil = await widget('/payment-requests', EVIL, { amount: '1.00', recipient_phone: '+14155550177' });
      assert.deepEqual(
        [evil.status, evil.body.message],
        [403, `The page origin ${EVIL} is not among this merchant's allowed origins (PUT /widgets/).`],
      );
      assert.equal(evil.headers['access-control-allow-origin'], undefined);
      const none = await widget('/pay-links', undefined, { amount: '1.00' });
      assert.deepEqual(
        [none.status, none.body.message],
        [403, 'Widget calls come from a web page, with an Origin header; this one has none.'],
      );
      assert.equal(await texts(), before);
      const allowed = await widget('/pay-links', SHOP, { amount: '1.00' });
      assert.equal(allowed.status, 200, allowed.text);
      assert.equal(allowed.headers['access-control-allow-origin'], SHOP);
      // Reading settings stays open to any caller: it is public, and CORS keeps other pages from reading it.
      assert.equal(
        (await service.request('GET', `/api/v1/widgets/${publicKey}/settings`, { headers: { origin: EVIL } })).status,
        200,
      );
    });

    test(
      environment === 'sandbox'
        ? 'with no allowed origins, the sandbox takes any page'
        : 'with no allowed origins, production refuses every public-key POST',
      async () => {
        await setOrigins([]);
        const answer = await widget('/pay-links', EVIL, { amount: '1.00' });
        if (environment === 'sandbox') {
          assert.equal(answer.status, 200, answer.text);
        } else {
          assert.deepEqual(
            [answer.status, answer.body.message],
            [
              403,
              'This merchant has no allowed origins yet: set allowed_origins with PUT /widgets/ before its widgets take payments in production.',
            ],
          );
        }
      },
    );

    test(`one phone gets at most ${WIDGET_TEXTS_PER_PHONE_PER_HOUR} texts an hour per merchant, whatever addresses or keys ask`, async () => {
      await setOrigins([SHOP]);
      const phone = environment === 'sandbox' ? '+14155550190' : '+14155550191';
      for (let i = 0; i < WIDGET_TEXTS_PER_PHONE_PER_HOUR; i++)
        assert.equal((await widget('/payment-requests', SHOP, { amount: '1.00', recipient_phone: phone })).status, 200);
      const oneMore = await widget('/payment-requests', SHOP, {
        amount: '1.00',
        recipient_phone: `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`,
      });
      assert.deepEqual(
        [oneMore.status, oneMore.body.message],
        [429, `${phone} was already sent 5 texts for this merchant in the last hour: try again later.`],
      );
      service.clock.advance(60 * 60 * 1000 + 1000);
      assert.equal(
        (await widget('/payment-requests', SHOP, { amount: '1.00', recipient_phone: phone })).status,
        200,
        'an hour later it may be texted again',
      );
    });
  });
}

async function productionMerchant(service: TestService): Promise<{ merchantKey: string }> {
  const onboarded = await service.api('POST', '/onboarding', { json: validApplication() });
  await service.store.merchants.transition(onboarded.body.data.merchant_id, 'pending', {
    status: 'completed',
    approved_at: service.clock.now().toISOString(),
  });
  return { merchantKey: onboarded.body.data.merchant_key };
}
