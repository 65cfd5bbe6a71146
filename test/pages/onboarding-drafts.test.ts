/**
 * The hosted onboarding form's steps over HTTP: each step saved on its one-time link (a draft), checked as it is left,
 * readable only with that link, gone when the application is submitted, refused once the link expires.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { digest } from '../../server/platform/secrets.ts';
import { Housekeeping } from '../../server/services/housekeeping.ts';
import { ONBOARDING_DRAFT_KEPT_MS, ONBOARDING_FORM_TTL_MS } from '../../server/domain/session-lifetimes.ts';
import { startService, type TestService } from '../support/service.ts';
import { testDatabases } from '../support/databases.ts';
import { validApplication } from '../support/fixtures.ts';
import { ANSWER_STEPS, answerSteps, formBody, newOnboardingLink, postStep } from '../support/onboarding.ts';
import { tagWithId } from './helpers.ts';
import { escapeHtml } from '../../server/views/html.ts';
import { pageLocale } from '../../server/views/i18n/language.ts';

const fieldsOf = (group: string, application = validApplication()) =>
  Object.fromEntries(Object.entries(formBody(application)).filter(([key]) => key.startsWith(`${group}.`)));
const tokenOf = (path: string) => path.split('/').pop()!;

for (const database of testDatabases())
  describe(`hosted onboarding drafts (${database})`, () => {
    let service: TestService;
    before(async () => {
      service = await startService({ database });
    });
    after(() => service.close());

    const savedDraft = async (path: string) =>
      (await service.store.onboardingTokens.findLink(digest(tokenOf(path))))?.draft ?? null;

    test('a step left valid is saved on the link, which then opens at the next step with the answers kept', async () => {
      const link = await newOnboardingLink(service, { business_name: 'Prefilled Ltd' });
      const moved = await postStep(service, link.path, 'business', {
        ...fieldsOf('BusinessInfo'),
        'BusinessInfo.dba': 'Corner Shop',
      });
      assert.equal(moved.status, 303);
      assert.equal(moved.headers.location, `${link.path}/owner`);

      const resumed = await service.request('GET', link.path);
      assert.equal(resumed.status, 200);
      assert.ok(
        resumed.text.includes('<p class="step-count">Step 2 of 5</p>'),
        'the bare link opens where the merchant left off',
      );
      const business = await service.request('GET', `${link.path}/business`);
      assert.match(tagWithId(business.text, 'BusinessInfo-dba'), /value="Corner Shop"/);
      assert.match(
        tagWithId(business.text, 'BusinessInfo-business_name'),
        /value="Blue Bottle Cafe"/,
        'the answer replaced the prefill',
      );
      assert.match(business.text, /<option value="US" selected>United States<\/option>/);

      // Back keeps what was typed, even when it is not valid yet, and does not check it.
      const back = await postStep(
        service,
        link.path,
        'owner',
        { 'OwnerInfo.first_name': 'Jo', 'OwnerInfo.email': 'half@' },
        { go: 'back' },
      );
      assert.equal(back.status, 303);
      assert.equal(back.headers.location, `${link.path}/business`);
      const owner = await service.request('GET', `${link.path}/owner`);
      assert.match(tagWithId(owner.text, 'OwnerInfo-email'), /value="half@"/);
      assert.doesNotMatch(tagWithId(owner.text, 'OwnerInfo-email'), /aria-invalid/);
      assert.equal(
        (await service.request('GET', link.path)).text.includes('Step 1 of 5'),
        true,
        'and the link opens where the merchant went',
      );
    });

    test('a step is checked as it is left: refused, nothing further opens, and the saved answers stay', async () => {
      const link = await newOnboardingLink(service);
      const refused = await postStep(service, link.path, 'business', {
        ...fieldsOf('BusinessInfo'),
        'BusinessInfo.business_zip': '!',
        'BusinessInfo.business_name': '',
      });
      assert.equal(refused.status, 400);
      assert.match(
        refused.text,
        /<a href="#BusinessInfo-business_name">Your business: Legal business name is required\.<\/a>/,
      );
      assert.match(
        refused.text,
        /<a href="#BusinessInfo-business_zip">Your business: Postal code must be a postal code/,
      );
      for (const step of ['owner', 'bank', 'processing', 'review']) {
        const ahead = await service.request('GET', `${link.path}/${step}`);
        assert.equal(ahead.status, 303, `${step} is not open yet`);
        assert.equal(ahead.headers.location, `${link.path}/business`);
      }
      const skipped = await postStep(service, link.path, 'bank', fieldsOf('BankingInfo'));
      assert.equal(skipped.status, 303, 'a later step cannot be posted before it is open');
      assert.equal(skipped.headers.location, `${link.path}/business`);
      assert.doesNotMatch(String(await savedDraft(link.path)), /110000000/);

      // A submission with the signature alone cannot skip the steps: every answer is checked again.
      const early = await service.request('POST', link.path, { form: { agree: 'yes', signature_name: 'Jane Doe' } });
      assert.equal(early.status, 400);
      assert.match(early.text, /Please correct \d+ answers/);

      for (const [path, status] of [
        [`${link.path}/nowhere`, 404],
        [`${link.path}/review`, 404],
      ] as const) {
        assert.equal((await service.request('POST', path, { form: { go: 'forward' } })).status, status, path);
      }
      assert.equal((await service.request('GET', `${link.path}/nowhere`)).status, 404);
      assert.equal((await service.request('GET', '/onboard/obl_not-a-real-link/owner')).status, 404);
      assert.equal(
        (await postStep(service, '/onboard/obl_not-a-real-link', 'business', fieldsOf('BusinessInfo'))).status,
        404,
      );
    });

    test('another link cannot read a draft, and a draft never holds the whole SSN or account number', async () => {
      const mine = await newOnboardingLink(service);
      const theirs = await newOnboardingLink(service);
      await answerSteps(
        service,
        mine.path,
        validApplication({ OwnerInfo: { first_name: 'Private' }, BankingInfo: { account_number: '000555666777' } }),
      );

      for (const step of ['business', 'owner', 'bank', 'processing', 'review']) {
        const other = await service.request('GET', `${theirs.path}/${step}`);
        assert.ok(
          !other.text.includes('Private') && !other.text.includes('Blue Bottle Cafe') && !other.text.includes('6777'),
          `${step} of another link shows none of it`,
        );
      }
      assert.equal(await savedDraft(theirs.path), null);

      const draft = String(await savedDraft(mine.path));
      assert.match(draft, /Private/);
      for (const secret of ['000555666777', '555666', '123-45-6789', '123456789'])
        assert.ok(!draft.includes(secret), `${secret} is not in the draft`);
      assert.match(draft, /"BankingInfo.account_number":"6777"/);
      assert.match(draft, /"OwnerInfo.ssn":"6789"/);

      const review = await service.request('GET', mine.path);
      assert.ok(review.text.includes('Step 5 of 5'));
      assert.match(review.text, /<dd>Ending in 6777<\/dd>/);
      const done = await service.request('POST', mine.path, { form: { agree: 'yes', signature_name: 'Private Doe' } });
      assert.equal(done.status, 200, done.text);
      assert.equal(await savedDraft(mine.path), null, 'the draft goes when the application is submitted');
      const again = await postStep(service, mine.path, 'business', fieldsOf('BusinessInfo'));
      assert.equal(again.status, 410, 'a used link saves nothing more');
      assert.equal(await savedDraft(mine.path), null);
    });

    test('every address of the steps carries the language the partner named', async () => {
      const link = await newOnboardingLink(service);
      const moved = await postStep(service, link.path, 'business', fieldsOf('BusinessInfo'), {
        query: '?locale=de-CH',
        headers: { 'accept-language': 'en' },
      });
      assert.equal(moved.headers.location, `${link.path}/owner?locale=de-CH`);
      const owner = await service.request('GET', moved.headers.location as string, {
        headers: { 'accept-language': 'en' },
      });
      assert.match(owner.text, /<html lang="de">/);
      assert.ok(owner.text.includes(`<form method="post" action="${link.path}/owner?locale=de-CH" novalidate>`));
      assert.ok(
        owner.text.includes(
          `<a href="${link.path}/business?locale=de-CH">Unternehmen<span class="visually-hidden"> (erledigt)</span></a>`,
        ),
        'a step left behind is a link, said to be done',
      );
      assert.ok(owner.text.includes('<li class="ahead"><span>Bankkonto</span></li>'), 'a step not reached is no link');
      assert.ok(owner.text.includes('<p class="step-count">Schritt 2 von 5</p>'));
    });

    test("each step's errors are in the merchant's language, in its words", async () => {
      // Each step's problem in each language, as that language's texts word it (and never as the English ones).
      const expected = (language: string): Record<string, string> => {
        const { onboarding } = pageLocale(language, undefined).texts;
        return {
          business: onboarding.problems.ein,
          owner: onboarding.problems.underage,
          bank: onboarding.problems.routingNumber,
          processing: onboarding.giveAll.split('{fields}')[0]!,
        };
      };
      const bad = validApplication({
        BusinessInfo: { ein: '12' },
        OwnerInfo: { date_of_birth: '2020-01-01' },
        BankingInfo: { routing_number: '123' },
        ProcessingInfo: { legal_b2c: undefined },
      });
      for (const language of ['en', 'es', 'fr', 'de']) {
        const byStep = expected(language);
        if (language !== 'en')
          for (const [step, words] of Object.entries(byStep))
            assert.notEqual(words, expected('en')[step], `${language} ${step} is translated`);
        const link = await newOnboardingLink(service);
        for (const [step, group] of ANSWER_STEPS) {
          const headers = { 'accept-language': language };
          const refused = await postStep(service, link.path, step, fieldsOf(group, bad), { headers });
          assert.equal(refused.status, 400, `${language} ${step}`);
          assert.match(refused.text, new RegExp(`<html lang="${language}">`));
          const summary = [.../<ul>(.*?)<\/ul>/.exec(refused.text)![1]!.matchAll(/<a [^>]*>([^<]*)<\/a>/g)]
            .map((m) => m[1])
            .join(' | ');
          assert.ok(summary.includes(escapeHtml(byStep[step]!)), `${language} ${step}: ${summary}`);
          assert.doesNotMatch(
            summary,
            /\b(BusinessInfo|OwnerInfo|BankingInfo|ProcessingInfo)\b|legal_|_number/,
            `${language} ${step}: no field path`,
          );
          assert.equal((await postStep(service, link.path, step, fieldsOf(group), { headers })).status, 303);
        }
      }
    });

    // Moves the shared clock, so it runs last.
    test('an expired link saves nothing and shows no draft; a week on, housekeeping forgets its answers', async () => {
      const link = await newOnboardingLink(service);
      assert.equal((await postStep(service, link.path, 'business', fieldsOf('BusinessInfo'))).status, 303);
      service.clock.advance(ONBOARDING_FORM_TTL_MS + 60_000);
      for (const answer of [
        await service.request('GET', link.path),
        await service.request('GET', `${link.path}/business`),
        await postStep(service, link.path, 'owner', fieldsOf('OwnerInfo')),
      ]) {
        assert.equal(answer.status, 410);
        assert.match(answer.text, /<h1>This onboarding link has expired<\/h1>/);
        assert.ok(!answer.text.includes('Blue Bottle Cafe'));
      }
      assert.doesNotMatch(String(await savedDraft(link.path)), /Jane/, 'the owner step was not saved');
      // Kept a while for a refreshed link to carry on with, then forgotten.
      assert.equal((await new Housekeeping({ store: service.store, clock: service.clock }).runOnce()).droppedDrafts, 0);
      assert.match(String(await savedDraft(link.path)), /Blue Bottle Cafe/);
      service.clock.advance(ONBOARDING_DRAFT_KEPT_MS);

      const live = await newOnboardingLink(service);
      assert.equal((await postStep(service, live.path, 'business', fieldsOf('BusinessInfo'))).status, 303);
      const { droppedDrafts } = await new Housekeeping({ store: service.store, clock: service.clock }).runOnce();
      assert.ok(droppedDrafts >= 1);
      assert.equal(
        await savedDraft(link.path),
        null,
        'housekeeping forgets the answers of a link that ended a week ago',
      );
      assert.match(String(await savedDraft(live.path)), /Blue Bottle Cafe/, 'and keeps those of a live one');
    });
  });
