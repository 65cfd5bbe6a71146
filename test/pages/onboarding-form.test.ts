import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BUSINESS_INDUSTRIES, ONBOARDING_FIELDS, OWNERSHIP_TYPES, PROCESSING_ENVIRONMENTS, PRODUCTS_SOLD, type FieldSpec,
} from '../../server/domain/onboarding.ts';
import { AGREEMENT_VERSION } from '../../server/domain/signature.ts';
import { escapeHtml } from '../../server/views/html.ts';
import { startService, type TestService } from '../support/service.ts';
import { validApplication } from '../support/fixtures.ts';
import { PAGE_CSP, formBody, newOnboardingLink, tagWithId } from './helpers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function assertPageHeaders(headers: Record<string, unknown>) {
  assert.match(String(headers['content-type']), /^text\/html; charset=utf-8/);
  assert.equal(headers['content-security-policy'], PAGE_CSP);
  assert.equal(headers['referrer-policy'], 'no-referrer');
  assert.equal(headers['cache-control'], 'no-store');
}

describe('hosted onboarding form', () => {
  let service: TestService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  test('shows every field labelled, in its group, with the partner prefill', async () => {
    const link = await newOnboardingLink(service, { business_name: 'Blue <Bottle> & "Co"', business_city: 'Oakland' });
    const page = await service.request('GET', link.path);
    assert.equal(page.status, 200);
    assertPageHeaders(page.headers);
    const html = page.text;
    assert.match(html, /^<!doctype html>\n<html lang="en">/);
    assert.match(html, /<h1>Set up your merchant account<\/h1>/);
    assert.equal(html.match(/<form method="post">/g)?.length, 1);
    for (const legend of ['Your business', 'Business owner', 'Bank account for payouts', 'How you take payments', 'Merchant agreement']) {
      assert.ok(html.includes(`<fieldset>\n<legend>${legend}</legend>`), `a fieldset with the legend ${legend}`);
    }

    const groups: Record<string, Record<string, FieldSpec>> = ONBOARDING_FIELDS;
    for (const [group, fields] of Object.entries(groups)) {
      for (const [name, spec] of Object.entries(fields)) {
        const id = `${group}-${name}`;
        assert.ok(html.includes(`<label for="${id}">${escapeHtml(spec.label)}`), `${id} has its label`);
        const tag = tagWithId(html, id);
        assert.ok(tag.includes(`name="${group}.${name}"`), `${id} posts as ${group}.${name}`);
        assert.equal(/\brequired\b/.test(tag), spec.required, `${id} is required exactly when the domain says so`);
      }
    }

    assert.match(tagWithId(html, 'BusinessInfo-business_name'), /value="Blue &lt;Bottle&gt; &amp; &quot;Co&quot;"/);
    assert.match(tagWithId(html, 'BusinessInfo-business_city'), /value="Oakland"/);
    assert.match(tagWithId(html, 'OwnerInfo-city'), /value=""/);
    assert.match(tagWithId(html, 'BusinessInfo-business_email'), /type="email"/);
    assert.match(tagWithId(html, 'OwnerInfo-phone'), /type="tel"/);
    assert.match(tagWithId(html, 'OwnerInfo-date_of_birth'), /type="date"/);
    assert.match(tagWithId(html, 'BusinessInfo-established_date'), /type="date"/);
    assert.match(tagWithId(html, 'BusinessInfo-website'), /type="url"/);
    assert.match(tagWithId(html, 'BankingInfo-routing_number'), /inputmode="numeric"/);
    assert.match(tagWithId(html, 'BusinessInfo-ein'), /aria-describedby="BusinessInfo-ein-hint"/);
    assert.match(html, /<p class="hint" id="BusinessInfo-ein-hint">[^<]*9 digits/);

    const selects: [string, readonly string[]][] = [
      ['BusinessInfo-ownershiptype', OWNERSHIP_TYPES], ['BusinessInfo-business_industry', BUSINESS_INDUSTRIES],
      ['ProcessingInfo-processing_environment', PROCESSING_ENVIRONMENTS], ['ProcessingInfo-legal_productssold', PRODUCTS_SOLD],
    ];
    for (const [id, values] of selects) {
      const select = new RegExp(`<select[^>]*id="${id}"[^>]*>(.*?)</select>`).exec(html);
      assert.ok(select, `${id} is a select`);
      const offered = [...select[1]!.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
      assert.deepEqual(offered, ['', ...values]);
    }

    assert.ok(html.includes(`version ${AGREEMENT_VERSION}`), 'the agreement names its version');
    assert.match(tagWithId(html, 'agree'), /type="checkbox"[^>]*name="agree"[^>]*required/);
    assert.match(html, /<label for="agree">I have read and accept/);
    assert.match(html, /<label for="signature_name">Type your full name to sign<\/label>/);
    assert.match(tagWithId(html, 'signature_name'), /name="signature_name" required/);
    assert.match(html, /<button type="submit">/);
  });

  test('a complete submission onboards the merchant, tells the partner, and uses up the link', async () => {
    const link = await newOnboardingLink(service, { business_name: 'Blue Bottle Cafe' });
    const answer = await service.request('POST', link.path, { form: formBody(validApplication()) });
    assert.equal(answer.status, 200, answer.text);
    assertPageHeaders(answer.headers);
    assert.match(answer.text, /<h1>Thank you — your application is under review<\/h1>/);
    assert.doesNotMatch(answer.text, /(?<![\w-])mk_[\w-]{40,}/, 'the merchant key is not shown');

    const merchants = await service.api('GET', '/merchant');
    const merchant = merchants.body.data.find((m: { merchant_id: string }) => m.merchant_id === link.merchantId);
    assert.ok(merchant, 'GET /merchant lists the merchant');
    assert.equal(merchant.businessname, 'Blue Bottle Cafe');
    assert.equal(merchant.first_name, 'Jane');
    assert.equal(merchant.last_name, 'Doe');
    assert.equal(merchant.website, 'https://blue-bottle.example');

    const events = (await service.store.events.listForClient(service.client.clientId)).filter((e) => e.data.merchant_id === link.merchantId);
    const onboarded = events.find((e) => e.event_type === 'merchant.onboarding');
    const signed = events.find((e) => e.event_type === 'documents.signed');
    assert.ok(onboarded && signed, 'merchant.onboarding and documents.signed are in the outbox');
    assert.deepEqual(Object.keys(onboarded.data).sort(), ['business_name', 'email', 'merchant_id', 'merchant_key', 'public_key']);
    assert.deepEqual(Object.keys(signed.data).sort(), ['business_name', 'company_id', 'email', 'merchant_id', 'website']);
    assert.equal(signed.data.company_id, 'acme-42');
    assert.equal(signed.data.website, 'https://blue-bottle.example');
    assert.ok(!answer.text.includes(String(onboarded.data.merchant_key)));

    const status = await service.api('POST', '/auth/get-onboarding-status', { json: { merchant_key: onboarded.data.merchant_key } });
    assert.equal(status.body.data.merchantStatus, 'pending');

    for (const again of [await service.request('GET', link.path), await service.request('POST', link.path, { form: formBody(validApplication()) })]) {
      assert.equal(again.status, 410);
      assert.match(again.text, /<h1>This onboarding link has already been used<\/h1>/);
    }
    const written = (await service.store.events.listForClient(service.client.clientId)).filter((e) => e.data.merchant_id === link.merchantId);
    assert.deepEqual(written.map((e) => e.event_type).sort(), ['documents.signed', 'merchant.onboarding', 'merchant_status'], 'each once, though the form was posted again');
    assert.equal(written.find((e) => e.event_type === 'merchant_status')!.data.status, 'pending');
  });

  test('an invalid submission is answered 400 with a summary and marked fields, keeping all but the SSN and account number', async () => {
    const link = await newOnboardingLink(service);
    const application = validApplication({
      BusinessInfo: { ein: '12', business_email: 'not-an-email' },
      OwnerInfo: { ssn: '512-34-9876' },
      BankingInfo: { account_number: '000987654321' },
    });
    const answer = await service.request('POST', link.path, { form: formBody(application) });
    assert.equal(answer.status, 400);
    assertPageHeaders(answer.headers);
    const html = answer.text;
    const summary = /<div class="summary" role="alert" aria-labelledby="error-summary-title">\n<h2 id="error-summary-title">([^<]+)<\/h2>\n<ul>(.*?)<\/ul>/.exec(html);
    assert.ok(summary, 'an error summary with a heading and a list');
    assert.ok(html.indexOf('class="summary"') < html.indexOf('<form'), 'the summary comes before the form');
    assert.equal(summary[1], 'Please correct 2 answers');
    const links = [...summary[2]!.matchAll(/<a href="#([^"]+)">([^<]+)<\/a>/g)].map((m) => m[1]);
    assert.deepEqual(links, ['BusinessInfo-ein', 'BusinessInfo-business_email']);

    for (const id of links) {
      const tag = tagWithId(html, id!);
      assert.match(tag, /aria-invalid="true"/);
      assert.match(tag, new RegExp(`aria-describedby="${id}-error`));
      assert.match(html, new RegExp(`<p class="error" id="${id}-error">[^<]+</p>`));
    }
    assert.match(html, /<p class="error" id="BusinessInfo-ein-error">EIN must be 9 digits/);
    assert.doesNotMatch(tagWithId(html, 'BusinessInfo-business_name'), /aria-invalid/);

    assert.match(tagWithId(html, 'BusinessInfo-ein'), /value="12"/);
    assert.match(tagWithId(html, 'BusinessInfo-business_email'), /value="not-an-email"/);
    assert.match(tagWithId(html, 'BusinessInfo-business_name'), /value="Blue Bottle Cafe"/);
    assert.match(tagWithId(html, 'OwnerInfo-first_name'), /value="Jane"/);
    assert.match(tagWithId(html, 'BankingInfo-routing_number'), /value="110000000"/);
    assert.match(html, /<option value="restaurant" selected>/);
    assert.match(tagWithId(html, 'agree'), /\bchecked\b/);
    assert.match(tagWithId(html, 'signature_name'), /value="Jane Doe"/);

    for (const secret of ['512-34-9876', '512349876', '000987654321']) assert.ok(!html.includes(secret), `${secret} is not in the page`);
    for (const id of ['OwnerInfo-ssn', 'BankingInfo-account_number']) {
      assert.match(tagWithId(html, id), /value=""/);
      assert.match(html, new RegExp(`<p class="hint" id="${id}-hint">[^<]*re-enter`));
    }

    const badSecrets = await service.request('POST', link.path, {
      form: formBody(validApplication({ OwnerInfo: { ssn: '98-76-54x' }, BankingInfo: { account_number: '12ab9988' } })),
    });
    assert.equal(badSecrets.status, 400);
    assert.ok(!badSecrets.text.includes('98-76-54x') && !badSecrets.text.includes('12ab9988'));
    assert.match(tagWithId(badSecrets.text, 'OwnerInfo-ssn'), /aria-invalid="true"/);
    assert.match(tagWithId(badSecrets.text, 'BankingInfo-account_number'), /aria-invalid="true"/);

    const sums = await service.request('POST', link.path, { form: formBody(validApplication({ ProcessingInfo: { legal_b2b: '10' } })) });
    assert.equal(sums.status, 400);
    assert.match(sums.text, /Business-to-business \(%\) and Business-to-consumer \(%\) must add up to 100 \(they add up to 110\)/);

    assert.equal((await service.request('GET', link.path)).status, 200, 'the link still works after refused submissions');
  });

  test('an unticked agreement and a missing or one-word signature are errors', async () => {
    const link = await newOnboardingLink(service);
    const unsigned = await service.request('POST', link.path, { form: formBody(validApplication(), { agree: '', signature_name: '' }) });
    assert.equal(unsigned.status, 400);
    assert.match(unsigned.text, /<a href="#agree">Merchant agreement: Tick the box/);
    assert.match(unsigned.text, /<a href="#signature_name">Merchant agreement: Sign with your full name/);
    assert.match(tagWithId(unsigned.text, 'agree'), /aria-invalid="true"/);
    assert.doesNotMatch(tagWithId(unsigned.text, 'agree'), /\bchecked\b/);
    assert.match(tagWithId(unsigned.text, 'signature_name'), /aria-invalid="true"/);

    const oneWord = await service.request('POST', link.path, { form: formBody(validApplication(), { agree: 'yes', signature_name: 'Jane' }) });
    assert.equal(oneWord.status, 400);
    assert.match(oneWord.text, /Please correct one answer/);
    assert.doesNotMatch(tagWithId(oneWord.text, 'agree'), /aria-invalid/);
    assert.match(tagWithId(oneWord.text, 'signature_name'), /aria-invalid="true"/);
    assert.equal((await service.store.events.listForClient(service.client.clientId)).filter((e) => e.data.merchant_id === link.merchantId).length, 0);
  });

  test('an unknown link is answered 404', async () => {
    for (const answer of [
      await service.request('GET', '/onboard/obl_not-a-real-link'),
      await service.request('POST', '/onboard/obl_not-a-real-link', { form: formBody(validApplication()) }),
    ]) {
      assert.equal(answer.status, 404);
      assertPageHeaders(answer.headers);
      assert.match(answer.text, /<h1>This onboarding link is not valid<\/h1>/);
    }
  });

  // Moves the shared clock, so it runs last.
  test('a link older than 7 days is answered 410, expired', async () => {
    const link = await newOnboardingLink(service);
    service.clock.advance(7 * DAY_MS - 60_000);
    assert.equal((await service.request('GET', link.path)).status, 200);
    service.clock.advance(2 * 60_000);
    for (const answer of [await service.request('GET', link.path), await service.request('POST', link.path, { form: formBody(validApplication()) })]) {
      assert.equal(answer.status, 410);
      assert.match(answer.text, /<h1>This onboarding link has expired<\/h1>/);
      assert.match(answer.text, /Ask the partner that sent it for a new link/);
    }
  });
});
