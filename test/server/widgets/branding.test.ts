/**
 * Branding: a platform sets its name, colour and logo once (PUT /client/branding), a merchant its own logo beside its
 * widget colour (PUT /widgets/); logos are checked images served by their hash; another client neither reads nor
 * sets them; and the hosted pay page and its outcome pages show the merchant's brand over the platform's.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import QRCode from 'qrcode';
import { startService, type TestService } from '../../support/service.ts';
import { cardForm, newPayLink, APPROVE, DECLINE } from '../../pages/pay-helpers.ts';
import { validApplication } from '../../support/fixtures.ts';
import { newOnboardingLink } from '../../support/onboarding.ts';
import { LOGO_PROBLEMS } from '../../../server/domain/logo-image.ts';
import type { MerchantAccount } from '../../../server/store/merchants.ts';

/** A merchant onboarded and approved through the API, with the key its partner holds. */
async function approvedAccount(
  service: TestService,
  businessName: string,
): Promise<MerchantAccount & { merchant_key: string }> {
  const onboarded = await service.api('POST', '/onboarding', {
    json: validApplication({ BusinessInfo: { business_name: businessName } }),
  });
  const { merchant_id: merchantId, merchant_key } = onboarded.body.data;
  assert.equal((await service.api('POST', '/approve-merchant', { json: { merchant_id: merchantId } })).status, 200);
  const account = await service.store.merchants.findById(service.client.clientId, merchantId);
  assert.ok(account);
  return { ...account, merchant_key };
}

const base64 = (bytes: Buffer) => bytes.toString('base64');
const logoOf = (page: string) =>
  /<header class="brand-bar"><p class="brand">(?:<img src="([^"]+)" alt="" width="(\d+)" height="(\d+)">)?<span>([^<]*)<\/span>/.exec(
    page,
  );

describe('branding', () => {
  let service: TestService;
  let platformLogo: Buffer;
  let merchantLogo: Buffer;
  before(async () => {
    service = await startService();
    platformLogo = await QRCode.toBuffer('platform', { type: 'png', width: 96, margin: 0 });
    merchantLogo = await QRCode.toBuffer('merchant', { type: 'png', width: 64, margin: 0, color: { dark: '#2f5d50' } });
  });
  after(() => service.close());

  test('a platform sets its name, colour and logo; the logo is served by its hash, cached for good, never sniffed', async () => {
    const empty = await service.api('GET', '/client/branding');
    assert.deepEqual(empty.body.data, { name: null, primary_color: null, logo: null, updated_at: null });
    const put = await service.api('PUT', '/client/branding', {
      json: { name: 'Harbor Commerce', primary_color: '#1D4ED8', logo: base64(platformLogo) },
    });
    assert.equal(put.status, 200, put.text);
    const { logo, updated_at: updatedAt, ...rest } = put.body.data;
    assert.deepEqual(rest, { name: 'Harbor Commerce', primary_color: '#1d4ed8' });
    assert.ok(Math.abs(Date.parse(updatedAt) - service.clock.now().getTime()) < 60_000);
    assert.match(logo.url, new RegExp(`^${service.baseUrl}/brand-logos/[0-9a-f]{64}\\.png$`));
    assert.deepEqual([logo.content_type, logo.width, logo.height], ['image/png', 96, 96]);
    assert.deepEqual((await service.api('GET', '/client/branding')).body.data, put.body.data);

    const served = await fetch(logo.url);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), platformLogo);
    assert.equal((await fetch(logo.url.replace('.png', '.jpg'))).status, 404, 'only by its own type');
    assert.equal((await fetch(`${service.baseUrl}/brand-logos/${'0'.repeat(64)}.png`)).status, 404);
    assert.equal((await fetch(`${service.baseUrl}/brand-logos/..%2Fsecrets`)).status, 404);

    const renamed = await service.api('PUT', '/client/branding', { json: { name: 'Harbor' } });
    assert.deepEqual(
      [renamed.body.data.name, renamed.body.data.primary_color, renamed.body.data.logo?.url],
      ['Harbor', '#1d4ed8', logo.url],
      'fields not given keep their value',
    );
    await service.api('PUT', '/client/branding', { json: { name: 'Harbor Commerce' } });
  });

  test('a logo that is not an image, a colour that is not #rrggbb, a name too long: 400 with the envelope', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    for (const [body, message] of [
      [{ logo: base64(svg) }, LOGO_PROBLEMS.notImage],
      [{ logo: base64(Buffer.from('just text, not a picture')) }, LOGO_PROBLEMS.notImage],
      [{ logo: `data:image/png;base64,${base64(platformLogo)}` }, LOGO_PROBLEMS.base64],
      [{ primary_color: 'red' }, 'primary_color must be a colour as #rrggbb, e.g. #2f5d50.'],
      [{ primary_color: '#abc' }, 'primary_color must be a colour as #rrggbb, e.g. #2f5d50.'],
      [{ name: '  ' }, 'name must be 1 to 80 characters.'],
    ] as const) {
      const refused = await service.api('PUT', '/client/branding', { json: body });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.result, false);
      assert.equal(refused.body.code, 'invalid_request');
      assert.ok(String(refused.body.message).includes(message), `${refused.body.message} says ${message}`);
    }
    const tooLarge = await service.api('PUT', '/client/branding', {
      json: { logo: base64(Buffer.concat([platformLogo, Buffer.alloc(210 * 1024)])) },
    });
    assert.equal(tooLarge.status, 400);
    assert.equal(tooLarge.body.result, false);
    const merchant = await approvedAccount(service, 'Refused Logo Cafe');
    const widget = await service.api('PUT', '/widgets/', {
      json: { merchant_key: merchant.merchant_key, logo: base64(svg) },
    });
    assert.deepEqual([widget.status, widget.body.result, widget.body.message], [400, false, LOGO_PROBLEMS.notImage]);
    assert.equal((await service.api('GET', '/client/branding')).body.data.name, 'Harbor Commerce', 'nothing changed');
  });

  test("another client reads and sets only its own branding, and cannot set a logo on this client's merchant", async () => {
    const other = await service.newClient('Other Platform');
    const auth = { id: other.clientId, secret: other.secretKey };
    assert.deepEqual((await service.api('GET', '/client/branding', { auth })).body.data, {
      name: null,
      primary_color: null,
      logo: null,
      updated_at: null,
    });
    const theirs = await service.api('PUT', '/client/branding', {
      auth,
      json: { name: 'Other Platform', primary_color: '#b91c1c' },
    });
    assert.equal(theirs.status, 200);
    assert.equal((await service.api('GET', '/client/branding')).body.data.name, 'Harbor Commerce', 'ours is untouched');
    const merchant = await approvedAccount(service, 'Not Theirs Deli');
    const widget = await service.api('PUT', '/widgets/', {
      auth,
      json: { merchant_key: merchant.merchant_key, logo: base64(merchantLogo) },
    });
    assert.equal(widget.status, 404, widget.text);
    assert.equal((await service.store.widgets.settings(merchant.id))?.logo_hash ?? null, null);
    assert.equal((await service.request('GET', '/api/v1/client/branding')).status, 401, 'credentials are needed');
  });

  test("the pay page and its outcome show the platform's brand, then the merchant's over it; Paykit only in the footer", async () => {
    const merchant = await approvedAccount(service, 'Juniper Coffee Co.');
    const platform = (await service.api('GET', '/client/branding')).body.data;
    const platformPath = new URL(platform.logo.url).pathname;

    const link = await newPayLink(service, merchant);
    const page = (await service.request('GET', link.path)).text;
    assert.deepEqual(
      logoOf(page)?.slice(1),
      [platformPath, '96', '96', 'Juniper Coffee Co.'],
      "the platform's logo, the merchant's name",
    );
    assert.match(
      page,
      /<style>:root\{--fill:#1d4ed8;--on-fill:#ffffff\}@media not \(prefers-color-scheme:dark\)\{:root\{--accent:#1d4ed8\}\}<\/style>/,
    );
    assert.match(page, /<title>Pay Juniper Coffee Co\.<\/title>/);
    assert.doesNotMatch(page, /<p class="brand">Paykit<\/p>/);
    assert.match(page, /<footer><p>Powered by Paykit<\/p><\/footer>/);

    const set = await service.api('PUT', '/widgets/', {
      json: { merchant_key: merchant.merchant_key, primary_color: '#2f5d50', logo: base64(merchantLogo) },
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual([set.body.data.logo.content_type, set.body.data.logo.width], ['image/png', 64]);
    const merchantPath = new URL(set.body.data.logo.url).pathname;
    const branded = await newPayLink(service, merchant);
    const pages = [
      (await service.request('GET', branded.path)).text,
      (await service.request('POST', branded.path, { form: cardForm(DECLINE) })).text,
      (await service.request('POST', branded.path, { form: cardForm(APPROVE) })).text,
      (await service.request('GET', branded.path)).text,
    ];
    assert.match(pages[3]!, /<h1>Already paid<\/h1>/, "the paid link's page");
    for (const [i, shown] of pages.entries()) {
      assert.deepEqual(
        logoOf(shown)?.slice(1),
        [merchantPath, '64', '64', 'Juniper Coffee Co.'],
        `page ${i}: the merchant's logo`,
      );
      assert.match(shown, /--fill:#2f5d50;--on-fill:#ffffff/, `page ${i}: the merchant's colour`);
      assert.match(shown, /<footer><p>Powered by Paykit<\/p><\/footer>/);
    }
    assert.match(pages[2]!, /<h1>Payment successful<\/h1>/);
    assert.match(
      pages[2]!,
      /<title>Payment successful · Juniper Coffee Co\.<\/title>/,
      'the tab names whose page it is',
    );

    // A merchant that only lists its origins keeps its platform's colour: the widgets' default is no choice of theirs.
    const plain = await approvedAccount(service, 'Plain Bakery');
    await service.api('PUT', '/widgets/', {
      json: { merchant_key: plain.merchant_key, allowed_origins: ['https://plain.example'] },
    });
    assert.match((await service.request('GET', (await newPayLink(service, plain)).path)).text, /--fill:#1d4ed8/);

    const removed = await service.api('PUT', '/widgets/', {
      json: { merchant_key: merchant.merchant_key, logo: null },
    });
    assert.equal(removed.body.data.logo, null);
    assert.equal(
      logoOf((await service.request('GET', (await newPayLink(service, merchant)).path)).text)?.[1],
      platformPath,
      "the platform's logo again",
    );
  });

  test("the onboarding form shows the platform's brand, the shopper's receipt page the merchant's", async () => {
    const platform = (await service.api('GET', '/client/branding')).body.data;
    const onboarding = await newOnboardingLink(service);
    const form = (await service.request('GET', onboarding.path)).text;
    assert.deepEqual(
      logoOf(form)?.slice(1),
      [new URL(platform.logo.url).pathname, '96', '96', platform.name],
      "the platform's logo and name",
    );
    assert.match(form, /<footer><p>Powered by Paykit<\/p><\/footer>/);

    const merchant = await approvedAccount(service, 'Receipt Roasters');
    const set = await service.api('PUT', '/widgets/', {
      json: { merchant_key: merchant.merchant_key, logo: base64(merchantLogo) },
    });
    assert.equal(set.status, 200, set.text);
    const link = await newPayLink(service, merchant, { email: 'shopper@example.com' });
    assert.match(
      (await service.request('POST', link.path, { form: cardForm(APPROVE) })).text,
      /<h1>Payment successful<\/h1>/,
    );
    const messages: { pay_link: string; recipient: string }[] = (await service.api('GET', '/sandbox/messages')).body
      .data;
    const receipt = messages.find((m) => m.recipient === 'shopper@example.com' && m.pay_link.includes('/receipts/'));
    assert.ok(receipt, 'a receipt was sent');
    const page = (await service.request('GET', new URL(receipt.pay_link).pathname)).text;
    assert.deepEqual(
      logoOf(page)?.slice(1),
      [new URL(set.body.data.logo.url).pathname, '64', '64', 'Receipt Roasters'],
      "the merchant's logo and name",
    );
  });
});
