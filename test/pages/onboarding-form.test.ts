import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BUSINESS_INDUSTRIES,
  ONBOARDING_FIELDS,
  OWNERSHIP_TYPES,
  PROCESSING_ENVIRONMENTS,
  PRODUCTS_SOLD,
  type FieldSpec,
} from '../../server/domain/onboarding.ts';
import { AGREEMENT_VERSION } from '../../server/domain/signature.ts';
import { escapeHtml } from '../../server/views/html.ts';
import { startService, type TestService } from '../support/service.ts';
import { validApplication } from '../support/fixtures.ts';
import { PAGE_CSP, formBody, newOnboardingLink, tagWithId } from './helpers.ts';
import { ANSWER_STEPS, postStep } from '../support/onboarding.ts';
import { ONBOARDING_FORM_TTL_MS, ONBOARDING_LINK_TTL_MS } from '../../server/domain/session-lifetimes.ts';

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

  test('asks for every field, labelled, one group a step, with the partner prefill and a progress indicator', async () => {
    const link = await newOnboardingLink(service, { business_name: 'Blue <Bottle> & "Co"', business_city: 'Oakland' });
    const first = await service.request('GET', link.path);
    assert.equal(first.status, 200);
    assertPageHeaders(first.headers);
    assert.match(first.text, /^<!doctype html>\n<html lang="en">/);
    assert.match(first.text, /<h1>Set up your merchant account<\/h1>/);
    assert.match(
      tagWithId(first.text, 'BusinessInfo-business_name'),
      /value="Blue &lt;Bottle&gt; &amp; &quot;Co&quot;"/,
    );
    assert.match(tagWithId(first.text, 'BusinessInfo-business_city'), /value="Oakland"/);

    const groups: Record<string, Record<string, FieldSpec>> = ONBOARDING_FIELDS;
    const legends = {
      business: 'Your business',
      owner: 'Business owner',
      bank: 'Bank account for payouts',
      processing: 'How you take payments',
    };
    const pages: Record<string, string> = {};
    const body = formBody(validApplication());
    for (const [index, [step, group]] of ANSWER_STEPS.entries()) {
      const page = await service.request('GET', `${link.path}/${step}`);
      assert.equal(page.status, 200, step);
      const html = page.text;
      pages[step] = html;
      assert.equal(html.match(/<form method="post" action="[^"]+" novalidate>/g)?.length, 1);
      assert.ok(
        html.includes(`<form method="post" action="${link.path}/${step}" novalidate>`),
        `${step} posts to its own address`,
      );
      assert.ok(
        html.includes(`<fieldset>\n<legend>${legends[step]}</legend>`),
        `${step}: a fieldset with the legend ${legends[step]}`,
      );
      assert.ok(html.includes(`<p class="step-count">Step ${index + 1} of 5</p>`), `${step} says where it is`);
      assert.match(
        html,
        new RegExp(`<a href="${link.path}/${step}" aria-current="step">`),
        `${step} is the current step`,
      );
      assert.equal(html.match(/aria-current="step"/g)?.length, 1);
      for (const [other, otherGroup] of ANSWER_STEPS) {
        if (otherGroup !== group)
          assert.ok(!html.includes(`name="${otherGroup}.`), `${step} does not ask for ${other}'s fields`);
      }
      for (const [name, spec] of Object.entries(groups[group]!)) {
        const id = `${group}-${name}`;
        assert.ok(html.includes(`<label for="${id}">${escapeHtml(spec.label)}`), `${id} has its label`);
        const tag = tagWithId(html, id);
        assert.ok(tag.includes(`name="${group}.${name}"`), `${id} posts as ${group}.${name}`);
        assert.equal(/\brequired\b/.test(tag), spec.required, `${id} is required exactly when the domain says so`);
      }
      assert.match(html, /<button type="submit" name="go" value="forward">Save and continue<\/button>/);
      assert.equal(html.includes('value="back"'), index > 0, 'every step but the first has a Back button');
      const fields = Object.fromEntries(Object.entries(body).filter(([key]) => key.startsWith(`${group}.`)));
      const next = await postStep(service, link.path, step, fields);
      assert.equal(next.status, 303);
      assert.equal(next.headers.location, `${link.path}/${ANSWER_STEPS[index + 1]?.[0] ?? 'review'}`);
    }

    assert.match(tagWithId(pages.owner!, 'OwnerInfo-city'), /value=""/);
    assert.match(tagWithId(pages.business!, 'BusinessInfo-business_email'), /type="email"/);
    assert.match(tagWithId(pages.owner!, 'OwnerInfo-phone'), /type="tel"/);
    assert.match(tagWithId(pages.owner!, 'OwnerInfo-date_of_birth'), /type="date"/);
    assert.match(tagWithId(pages.business!, 'BusinessInfo-established_date'), /type="date"/);
    assert.match(tagWithId(pages.business!, 'BusinessInfo-website'), /type="url"/);
    assert.match(tagWithId(pages.bank!, 'BankingInfo-routing_number'), /inputmode="numeric"/);
    assert.match(tagWithId(pages.business!, 'BusinessInfo-ein'), /aria-describedby="BusinessInfo-ein-hint"/);
    assert.match(pages.business!, /<p class="hint" id="BusinessInfo-ein-hint">[^<]*9 digits/);

    const selects: [string, string, readonly string[]][] = [
      ['business', 'BusinessInfo-ownershiptype', OWNERSHIP_TYPES],
      ['business', 'BusinessInfo-business_industry', BUSINESS_INDUSTRIES],
      ['processing', 'ProcessingInfo-processing_environment', PROCESSING_ENVIRONMENTS],
      ['processing', 'ProcessingInfo-legal_productssold', PRODUCTS_SOLD],
    ];
    for (const [step, id, values] of selects) {
      const select = new RegExp(`<select[^>]*id="${id}"[^>]*>(.*?)</select>`).exec(pages[step]!);
      assert.ok(select, `${id} is a select`);
      const offered = [...select[1]!.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
      assert.deepEqual(offered, ['', ...values]);
    }
    for (const [step, id] of [
      ['business', 'BusinessInfo-business_country'],
      ['owner', 'OwnerInfo-country'],
    ] as const) {
      const select = new RegExp(`<select[^>]*id="${id}"[^>]*>(.*?)</select>`).exec(pages[step]!);
      assert.ok(select, `${id} is a country select`);
      assert.match(select[1]!, /<option value="US">United States<\/option>/);
      assert.match(select[1]!, /<option value="DE">Germany<\/option>/);
      assert.ok(
        select[1]!.indexOf('>Germany<') < select[1]!.indexOf('>United States<'),
        'countries in alphabetical order',
      );
      assert.doesNotMatch(
        select[1]!,
        /value="(EU|UN|ZZ|DD|UK|YU)"/,
        'groups of countries and old codes are not offered',
      );
    }

    const review = await service.request('GET', link.path);
    assert.equal(review.status, 200);
    const html = review.text;
    assert.ok(
      html.includes('<p class="step-count">Step 5 of 5</p>'),
      'the link opens where the merchant left off: the review',
    );
    assert.match(html, /<dt>Legal business name<\/dt><dd>Blue Bottle Cafe<\/dd>/);
    assert.match(html, /<dt>Country<\/dt><dd>United States<\/dd>/);
    assert.match(html, /<dt>Industry<\/dt><dd>Restaurant<\/dd>/);
    assert.match(html, /<dt>SSN<\/dt><dd>Ending in 6789<\/dd>/);
    assert.match(html, /<dt>Account number<\/dt><dd>Ending in 6789<\/dd>/);
    for (const [step] of ANSWER_STEPS)
      assert.ok(
        html.includes(`<a href="${link.path}/${step}">Change<span class="visually-hidden">`),
        `the review links back to ${step}`,
      );
    assert.ok(html.includes(`version ${AGREEMENT_VERSION}`), 'the agreement names its version');
    assert.match(tagWithId(html, 'agree'), /type="checkbox"[^>]*name="agree"[^>]*required/);
    assert.match(html, /<label for="agree">I have read and accept/);
    assert.match(html, /<label for="signature_name">Type your full name to sign<\/label>/);
    assert.match(tagWithId(html, 'signature_name'), /name="signature_name" required/);
    assert.ok(html.includes(`<form method="post" action="${link.path}" novalidate>`));
    assert.match(html, /<button type="submit">Sign and submit application<\/button>/);
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

    const events = (await service.store.events.listForClient(service.client.clientId)).filter(
      (e) => e.data.merchant_id === link.merchantId,
    );
    const onboarded = events.find((e) => e.event_type === 'merchant.onboarding');
    const signed = events.find((e) => e.event_type === 'documents.signed');
    assert.ok(onboarded && signed, 'merchant.onboarding and documents.signed are in the outbox');
    assert.deepEqual(Object.keys(onboarded.data).sort(), [
      'business_name',
      'email',
      'merchant_id',
      'merchant_key',
      'public_key',
    ]);
    assert.deepEqual(Object.keys(signed.data).sort(), [
      'business_name',
      'company_id',
      'email',
      'merchant_id',
      'website',
    ]);
    assert.equal(signed.data.company_id, 'acme-42');
    assert.equal(signed.data.website, 'https://blue-bottle.example');
    assert.ok(!answer.text.includes(String(onboarded.data.merchant_key)));

    const status = await service.api('POST', '/auth/get-onboarding-status', {
      json: { merchant_key: onboarded.data.merchant_key },
    });
    assert.equal(status.body.data.merchantStatus, 'pending');

    for (const again of [
      await service.request('GET', link.path),
      await service.request('POST', link.path, { form: formBody(validApplication()) }),
    ]) {
      assert.equal(again.status, 410);
      assert.match(again.text, /<h1>This onboarding link has already been used<\/h1>/);
    }
    const written = (await service.store.events.listForClient(service.client.clientId)).filter(
      (e) => e.data.merchant_id === link.merchantId,
    );
    assert.deepEqual(
      written.map((e) => e.event_type).sort(),
      ['documents.signed', 'merchant.onboarding', 'merchant_status'],
      'each once, though the form was posted again',
    );
    assert.equal(written.find((e) => e.event_type === 'merchant_status')!.data.status, 'pending');
  });

  test('a step left with errors is answered 400 with a summary and marked fields, keeping all but the SSN and account number', async () => {
    const link = await newOnboardingLink(service);
    const body = formBody(
      validApplication({
        BusinessInfo: { ein: '12', business_email: 'not-an-email' },
        OwnerInfo: { ssn: '512-34-9876' },
        BankingInfo: { account_number: '000987654321' },
      }),
    );
    const only = (group: string) =>
      Object.fromEntries(Object.entries(body).filter(([key]) => key.startsWith(`${group}.`)));
    const answer = await postStep(service, link.path, 'business', only('BusinessInfo'));
    assert.equal(answer.status, 400);
    assertPageHeaders(answer.headers);
    const html = answer.text;
    const summary =
      /<div class="summary" role="alert" aria-labelledby="error-summary-title">\n<h2 id="error-summary-title">([^<]+)<\/h2>\n<ul>(.*?)<\/ul>/.exec(
        html,
      );
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
    assert.match(html, /<option value="restaurant" selected>/);
    assert.ok(html.includes('<p class="step-count">Step 1 of 5</p>'), 'the merchant stays on the step');
    assert.equal(
      (await service.request('GET', `${link.path}/owner`)).status,
      303,
      'the next step is not open before this one is valid',
    );

    assert.equal(
      (
        await postStep(service, link.path, 'business', {
          ...only('BusinessInfo'),
          'BusinessInfo.ein': '12-3456789',
          'BusinessInfo.business_email': 'a@b.example',
        })
      ).status,
      303,
    );
    const badSsn = await postStep(service, link.path, 'owner', {
      ...only('OwnerInfo'),
      'OwnerInfo.ssn': '98-76-54x',
      'OwnerInfo.first_name': '',
    });
    assert.equal(badSsn.status, 400);
    assert.ok(!badSsn.text.includes('98-76-54x'), 'the SSN typed is not sent back');
    assert.match(tagWithId(badSsn.text, 'OwnerInfo-ssn'), /aria-invalid="true"/);
    assert.match(tagWithId(badSsn.text, 'OwnerInfo-ssn'), /value=""/);
    assert.match(badSsn.text, /<p class="hint" id="OwnerInfo-ssn-hint">[^<]*re-enter/);
    assert.match(tagWithId(badSsn.text, 'OwnerInfo-first_name'), /aria-invalid="true"/);
    assert.match(tagWithId(badSsn.text, 'OwnerInfo-last_name'), /value="Doe"/);

    // Valid, the SSN is kept as its last four digits: the step opens again without it, and needs it no more.
    const badOwner = await postStep(service, link.path, 'owner', { ...only('OwnerInfo'), 'OwnerInfo.email': 'nope' });
    assert.equal(badOwner.status, 400);
    assert.ok(!badOwner.text.includes('512-34-9876') && !badOwner.text.includes('512349876'));
    assert.match(badOwner.text, /<p class="hint" id="OwnerInfo-ssn-hint">Saved: the number ending in 9876\./);
    assert.doesNotMatch(tagWithId(badOwner.text, 'OwnerInfo-ssn'), /\brequired\b/);
    assert.equal(
      (await postStep(service, link.path, 'owner', { ...only('OwnerInfo'), 'OwnerInfo.ssn': '' })).status,
      303,
      'the kept SSN stands',
    );

    const badAccount = await postStep(service, link.path, 'bank', {
      ...only('BankingInfo'),
      'BankingInfo.account_number': '12ab9988',
    });
    assert.equal(badAccount.status, 400);
    assert.ok(!badAccount.text.includes('12ab9988'));
    assert.match(tagWithId(badAccount.text, 'BankingInfo-account_number'), /aria-invalid="true"/);
    assert.match(tagWithId(badAccount.text, 'BankingInfo-routing_number'), /value="110000000"/);
    assert.equal((await postStep(service, link.path, 'bank', only('BankingInfo'))).status, 303);

    const sums = await postStep(service, link.path, 'processing', {
      ...only('ProcessingInfo'),
      'ProcessingInfo.legal_b2b': '10',
    });
    assert.equal(sums.status, 400);
    assert.match(
      sums.text,
      /Business-to-business \(%\) and Business-to-consumer \(%\) must add up to 100 \(they add up to 110\)/,
    );
    const some = await postStep(service, link.path, 'processing', {
      ...only('ProcessingInfo'),
      'ProcessingInfo.legal_b2c': '',
    });
    assert.equal(some.status, 400);
    assert.match(
      some.text,
      /<a href="#ProcessingInfo-legal_b2c">How you take payments: Fill in all of Business-to-business \(%\) and Business-to-consumer \(%\), or leave them all empty\.<\/a>/,
    );
    const words = [...some.text.matchAll(/<p class="error"[^>]*>([^<]*)<\/p>|<li><a [^>]*>([^<]*)<\/a><\/li>/g)].map(
      (m) => m[1] ?? m[2],
    );
    assert.ok(words.length >= 2);
    for (const text of words)
      assert.doesNotMatch(text!, /legal_|ProcessingInfo/, 'no field path in what the merchant reads');
    assert.equal((await postStep(service, link.path, 'processing', only('ProcessingInfo'))).status, 303);

    // An answer posted with the signature replaces the saved one; refused, the review links to the step that has it.
    const refused = await service.request('POST', link.path, {
      form: { 'BusinessInfo.ein': '99', agree: 'yes', signature_name: 'Jane Doe' },
    });
    assert.equal(refused.status, 400);
    assert.ok(
      refused.text.includes(`<a href="${link.path}/business#BusinessInfo-ein">Your business: EIN must be 9 digits`),
    );
    assert.match(tagWithId(refused.text, 'signature_name'), /value="Jane Doe"/);
    assert.match(tagWithId(refused.text, 'agree'), /\bchecked\b/);

    assert.equal((await service.request('GET', link.path)).status, 200, 'the link still works after refused answers');
    const accepted = await service.request('POST', link.path, { form: { agree: 'yes', signature_name: 'Jane Doe' } });
    assert.equal(accepted.status, 200, accepted.text);
    const merchant = await service.store.merchants.findByIdUnscoped(link.merchantId);
    const stored = JSON.parse(merchant!.application!);
    assert.equal(stored.OwnerInfo.ssn_last4, '9876');
    assert.equal(stored.BankingInfo.account_last4, '4321');
    assert.equal(stored.BusinessInfo.business_email, 'a@b.example');
    assert.equal(stored.OwnerInfo.ssn, undefined);
    assert.equal(stored.BankingInfo.account_number, undefined);
  });

  test('an unticked agreement and a missing or one-word signature are errors', async () => {
    const link = await newOnboardingLink(service);
    const unsigned = await service.request('POST', link.path, {
      form: formBody(validApplication(), { agree: '', signature_name: '' }),
    });
    assert.equal(unsigned.status, 400);
    assert.match(unsigned.text, /<a href="#agree">Merchant agreement: Tick the box/);
    assert.match(unsigned.text, /<a href="#signature_name">Merchant agreement: Sign with your full name/);
    assert.match(tagWithId(unsigned.text, 'agree'), /aria-invalid="true"/);
    assert.doesNotMatch(tagWithId(unsigned.text, 'agree'), /\bchecked\b/);
    assert.match(tagWithId(unsigned.text, 'signature_name'), /aria-invalid="true"/);

    const oneWord = await service.request('POST', link.path, {
      form: formBody(validApplication(), { agree: 'yes', signature_name: 'Jane' }),
    });
    assert.equal(oneWord.status, 400);
    assert.match(oneWord.text, /Please correct one answer/);
    assert.doesNotMatch(tagWithId(oneWord.text, 'agree'), /aria-invalid/);
    assert.match(tagWithId(oneWord.text, 'signature_name'), /aria-invalid="true"/);
    assert.equal(
      (await service.store.events.listForClient(service.client.clientId)).filter(
        (e) => e.data.merchant_id === link.merchantId,
      ).length,
      0,
    );
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
  test('a link not opened within 15 minutes is answered 410; opened, it works 7 days in its browser, then 410', async () => {
    const unopened = await newOnboardingLink(service);
    const opened = await newOnboardingLink(service);
    service.clock.advance(ONBOARDING_LINK_TTL_MS - 60_000);
    assert.equal((await service.request('GET', opened.path)).status, 200);
    service.clock.advance(2 * 60_000);
    const late = await service.request('GET', unopened.path);
    assert.equal(late.status, 410);
    assert.match(late.text, /<h1>This onboarding link has expired<\/h1>/);
    assert.match(
      late.text,
      /An onboarding link must be opened within 15 minutes, and then works for 7 days in the browser that opened it\. Ask the partner that sent it for a new link: your saved answers are kept\./,
    );
    // Opened two minutes before now: it works a week from then.
    service.clock.advance(ONBOARDING_FORM_TTL_MS - 3 * 60_000);
    assert.equal((await service.request('GET', opened.path)).status, 200, 'opened, it works a week in its browser');
    service.clock.advance(2 * 60_000);
    for (const answer of [
      await service.request('GET', opened.path),
      await service.request('POST', opened.path, { form: formBody(validApplication()) }),
    ]) {
      assert.equal(answer.status, 410);
      assert.match(answer.text, /<h1>This onboarding link has expired<\/h1>/);
    }
  });
});
