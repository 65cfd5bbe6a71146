/**
 * The hosted pages in English, Spanish, French and German: the pay page in the language the pay button asked for
 * (`?locale=`, carried through its forms and links) or the browser's Accept-Language; the onboarding form in the
 * browser's. The service's own messages (a refused card, a field's rule) are said in the page's language too.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MerchantAccount } from '../../server/store/merchants.ts';
import { pageLocale } from '../../server/views/i18n/language.ts';
import { en } from '../../server/views/i18n/en.ts';
import { startService, type TestService } from '../support/service.ts';
import { validApplication } from '../support/fixtures.ts';
import { APPROVE, DECLINE, approvedMerchant, cardForm, newPayLink } from './pay-helpers.ts';
import { formBody, newOnboardingLink, tagWithId } from './helpers.ts';
import { answerSteps } from '../support/onboarding.ts';

const titleOf = (page: string) => /<h1>([^<]*)<\/h1>/.exec(page)?.[1];
const langOf = (page: string) => /<html lang="([^"]+)">/.exec(page)?.[1];

describe('hosted pages in four languages', () => {
  let service: TestService;
  let merchant: MerchantAccount;
  before(async () => {
    service = await startService();
    merchant = await approvedMerchant(service, 'Panadería Sol');
  });
  after(() => service.close());

  test('the language: ?locale= first, then Accept-Language by preference, then English', () => {
    assert.deepEqual(pageLocale('fr-CA', 'de'), {
      language: 'fr',
      locale: 'fr-CA',
      texts: pageLocale('fr', undefined).texts,
      asked: 'fr-CA',
    });
    assert.equal(pageLocale(undefined, 'pt-BR,es;q=0.8,de;q=0.9').language, 'de');
    assert.equal(pageLocale(undefined, 'es-MX').locale, 'es-MX');
    assert.equal(pageLocale(undefined, 'de').locale, 'de-DE');
    assert.equal(pageLocale('pt-BR', 'fr;q=0.1').language, 'fr', 'a language Paykit does not speak is passed over');
    assert.equal(pageLocale('not a tag!', '*').language, 'en');
    assert.equal(pageLocale(undefined, undefined).texts, en);
  });

  test('the pay page follows Accept-Language: texts, amounts, and the refusals of the service', async () => {
    const link = await newPayLink(service, merchant, { amount: '10.50', discount: '0.50' });
    const expectations = [
      [
        'es-ES,es;q=0.9',
        'es',
        'Pagar a Panadería Sol',
        /<th scope="row">Importe<\/th><td>10,50\s*US\$<\/td>/,
        /Pagar 10,00\s*US\$ con tarjeta/,
      ],
      [
        'fr-FR',
        'fr',
        'Payer Panadería Sol',
        /<th scope="row">Remise<\/th><td>-0,50\s*\$US<\/td>/,
        /Payer 10,00\s*\$US par carte/,
      ],
      [
        'de-DE',
        'de',
        'Panadería Sol bezahlen',
        /<th scope="row">Betrag<\/th><td>10,50\s*\$<\/td>/,
        /10,00\s*\$ mit Karte bezahlen/,
      ],
      ['en-US', 'en', 'Pay Panadería Sol', /<th scope="row">Amount<\/th><td>\$10\.50<\/td>/, /Pay \$10\.00 by card/],
    ] as const;
    for (const [header, language, title, amountRow, button] of expectations) {
      const page = await service.request('GET', link.path, { headers: { 'accept-language': header } });
      assert.equal(page.status, 200);
      assert.equal(langOf(page.text), language);
      assert.equal(titleOf(page.text), title);
      assert.match(page.text, amountRow);
      assert.match(page.text, button);
    }
    const refused = await service.request('POST', link.path, {
      form: cardForm('4242424242424241'),
      headers: { 'accept-language': 'fr' },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /<a href="#card-number">Le numéro de carte n’est pas valide\.<\/a>/);
    assert.match(refused.text, /<h2 id="error-summary-title">Le paiement n’a pas abouti<\/h2>/);
  });

  test('the pay button’s locale wins, and the forms, links and outcome pages keep it', async () => {
    const link = await newPayLink(service, merchant, { amount: '10.00' });
    const page = await service.request(
      'GET',
      `${link.path}?origin=${encodeURIComponent('https://shop.example')}&locale=de-CH`,
      { headers: { 'accept-language': 'en' } },
    );
    assert.equal(langOf(page.text), 'de');
    assert.equal(
      (page.text.match(/<input type="hidden" name="locale" value="de-CH">/g) ?? []).length,
      2,
      'both forms carry it',
    );
    const declined = await service.request('POST', link.path, {
      form: cardForm(DECLINE, { origin: 'https://shop.example', locale: 'de-CH' }),
      headers: { 'accept-language': 'en' },
    });
    assert.equal(declined.status, 402);
    assert.match(declined.text, /<h2 id="error-summary-title">Zahlung abgelehnt<\/h2>/);
    assert.ok(declined.text.includes('Es wurde nichts belastet.'), 'what to do next, in German');
    assert.equal(
      (declined.text.match(/<input type="hidden" name="locale" value="de-CH">/g) ?? []).length,
      2,
      'the form again keeps it',
    );
    // The pay button shows the pay page's message: in the page's language.
    assert.match(declined.text, /"message":"Ihre Karte wurde abgelehnt\."/);
    const paid = await service.request('POST', link.path, {
      form: cardForm(APPROVE, { locale: 'de-CH' }),
      headers: { 'accept-language': 'en' },
    });
    assert.equal(titleOf(paid.text), 'Zahlung erfolgreich');
    const swissAmount = new Intl.NumberFormat('de-CH', { style: 'currency', currency: 'USD' }).format(10);
    assert.ok(paid.text.includes(`Sie haben ${swissAmount} an Panadería Sol bezahlt`), 'de-CH amounts');
  });

  test('the onboarding form follows Accept-Language: labels, hints, options, the agreement and every error', async () => {
    const link = await newOnboardingLink(service, { business_name: 'Acme' });
    const form = await service.request('GET', link.path, { headers: { 'accept-language': 'es' } });
    assert.equal(form.status, 200);
    assert.equal(langOf(form.text), 'es');
    assert.equal(titleOf(form.text), 'Configure su cuenta de comercio');
    assert.ok(form.text.includes('<label for="BusinessInfo-business_name">Razón social</label>'));
    assert.match(form.text, /<p class="hint" id="BusinessInfo-ein-hint">Número de identificación del empleador/);
    assert.match(form.text, /<option value="restaurant">Restauración<\/option>/);
    assert.match(tagWithId(form.text, 'BusinessInfo-business_name'), /value="Acme"/);
    assert.match(form.text, /<option value="DE">Alemania<\/option>/, 'countries named in the language');
    await answerSteps(service, link.path, validApplication());
    const review = await service.request('GET', link.path, { headers: { 'accept-language': 'es' } });
    assert.match(review.text, /Contrato de comercio de Paykit \(entorno de pruebas\), versión/);
    assert.match(review.text, /<p class="step-count">Paso 5 de 5<\/p>/);

    const application = validApplication({
      BusinessInfo: { ein: '12', business_email: '' },
      ProcessingInfo: { legal_b2b: '60', legal_b2c: '50' },
    });
    const { agree: _agree, ...unticked } = formBody(application);
    const refused = await service.request('POST', link.path, {
      form: { ...unticked, signature_name: 'Jane' },
      headers: { 'accept-language': 'de-DE' },
    });
    assert.equal(refused.status, 400);
    assert.equal(langOf(refused.text), 'de');
    const summary = [...refused.text.matchAll(/<li><a href="[^"]+">([^<]+)<\/a><\/li>/g)].map((match) => match[1]);
    assert.deepEqual(summary, [
      'Ihr Unternehmen: EIN: muss 9 Ziffern haben, z. B. „12-3456789“.',
      'Ihr Unternehmen: Geschäftliche E-Mail: Pflichtfeld.',
      'Wie Sie Zahlungen annehmen: Geschäftskunden (%) und Privatkunden (%) müssen zusammen 100 ergeben (sie ergeben 110).',
      'Händlervertrag: Kreuzen Sie das Kästchen an, um den Händlervertrag zu akzeptieren.',
      'Händlervertrag: Unterschreiben Sie mit Ihrem vollständigen Namen, Vor- und Nachname, z. B. „Jane Doe“.',
    ]);
    assert.match(refused.text, /<h2 id="error-summary-title">Bitte korrigieren Sie 5 Angaben<\/h2>/);
  });

  test('every language has every text: no key is left in English by omission', () => {
    // PageTexts makes a missing key a type error; this catches a text copied over untranslated.
    for (const language of ['es', 'fr', 'de']) {
      const texts = pageLocale(language, undefined).texts;
      const same = Object.entries(texts.onboarding.labels).filter(
        ([field, label]) =>
          label === en.onboarding.labels[field as keyof typeof en.onboarding.labels] &&
          !/^(EIN|SSN|Website|E-Mail|Status|Transaction|Description|Total)$/.test(label),
      );
      assert.deepEqual(same, [], `${language}: labels not translated`);
      assert.notEqual(texts.pay.cardLegend, en.pay.cardLegend);
      assert.notEqual(texts.onboarding.agreementTerms[0], en.onboarding.agreementTerms[0]);
    }
  });
});
