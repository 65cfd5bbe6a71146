/** The elements in English, Spanish, French and German: texts by `locale` (or the page's language), `strings` first. */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.ts';
import type { PayButton, RequestPaymentButton, TransactionsTable } from '../../src/index.ts';
import { clearSettingsCache } from '../../src/widget-api.ts';
import { FAKE_BASE, FAKE_KEY, eventWithin, fakeService, json, maybePart, ok, part } from './helpers.ts';

const text = (el: HTMLElement, name: string) => part(el, name).textContent!.replace(/\s+/g, ' ').trim();

describe('locales', () => {
  let service: ReturnType<typeof fakeService> | undefined;
  afterEach(() => {
    service?.restore();
    service = undefined;
    clearSettingsCache();
  });

  it("puts the words of the dialog's title in the button's order, in each language", async () => {
    const { payButtonStrings } = await import('../../src/elements/pay-button/pay-button.ts');
    const others = await Promise.all([
      import('../../src/locales/es.ts'),
      import('../../src/locales/fr.ts'),
      import('../../src/locales/de.ts'),
    ]);
    for (const payButton of [payButtonStrings, ...others.map((table) => table.default.payButton)]) {
      const button = payButton.label.replace('{verb}', payButton.verb);
      expect(payButton.dialogTitle, payButton.verb).to.equal(button);
    }
  });

  it('says the pay button in each language, amounts through Intl', async () => {
    for (const [locale, label] of [
      ['en-US', 'Pay $3.00'],
      ['es-ES', 'Pagar 3,00 US$'],
      ['fr-FR', 'Payer 3,00 $US'],
      ['de-DE', 'Bezahlen 3,00 $'],
    ]) {
      const el = await fixture<PayButton>(html`<pay-button amount="3" locale=${locale}></pay-button>`);
      await waitUntil(() => text(el, 'label') === label, `${locale}: "${label}", not "${text(el, 'label')}"`);
    }
  });

  it('lets strings replace any text in any language, and a region of a language speak it (fr-CA)', async () => {
    const el = await fixture<PayButton>(html`<pay-button amount="3" locale="fr-CA"></pay-button>`);
    await waitUntil(() => text(el, 'label').startsWith('Payer'), 'French');
    el.strings = { verb: 'Régler' };
    await el.updateComplete;
    expect(text(el, 'label')).to.match(/^Régler 3,00/);
    el.locale = 'pt-BR';
    el.strings = {};
    await el.updateComplete;
    expect(text(el, 'label'), 'a language Paykit does not speak: English texts, the locale’s amounts').to.match(
      /^Pay US\$ 3,00$/,
    );
  });

  it('reports its errors in its language, with the same code', async () => {
    service = fakeService({});
    const el = await fixture<RequestPaymentButton>(
      html`<request-payment-button amount="5" recipient-phone="555-0123" locale="de-DE" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></request-payment-button>`,
    );
    await waitUntil(() => text(el, 'label') === '5,00 $ anfordern', 'German');
    const failed = eventWithin<CustomEvent>(el, 'request-error');
    part(el, 'button').click();
    expect((await failed).detail).to.deep.equal({
      code: 'invalid_request',
      message:
        '„555-0123“ ist keine Telefonnummer: Verwenden Sie „+“ und die Ländervorwahl oder zehn Ziffern, z. B. +14155550123.',
    });
  });

  it('lists transactions in Spanish, statuses and types included', async () => {
    const item = (id: string, status: string, type: string) => ({
      transaction_id: id,
      created_date: '2026-03-04T10:00:00.000Z',
      amount: '12.50',
      net_amount: '12.00',
      card_brand: 'visa',
      last_four: '4242',
      status,
      type,
    });
    service = fakeService({
      'GET /transactions': () =>
        ok({
          items: [item('t1', 'completed', 'sale'), item('t2', 'completed', 'refund'), item('t3', 'voided', 'sale')],
          page: 1,
          perPage: 20,
          totalCount: 3,
        }),
    });
    const el = document.createElement('transactions-table') as TransactionsTable;
    Object.assign(el, { sessionToken: 'wst_x', baseUrl: FAKE_BASE, locale: 'es-ES' });
    await fixture(el);
    await waitUntil(() => maybePart(el, 'table') && text(el, 'status').startsWith('Mostrando'), 'Spanish listing');
    expect(text(el, 'status')).to.equal('Mostrando 1–3 de 3 transacciones.');
    const cells = Array.from(el.shadowRoot!.querySelectorAll('tbody tr td:last-child'), (cell) => cell.textContent);
    expect(cells).to.deep.equal(['Completada', 'Reembolso · Completada', 'Anulada']);
    expect(Array.from(el.shadowRoot!.querySelectorAll('th'), (th) => th.textContent)).to.deep.equal([
      'Fecha',
      'Importe',
      'Tarjeta',
      'Estado',
    ]);
    expect(text(el, 'apply-button')).to.equal('Aplicar');
    await expect(el).to.be.accessible();
  });

  it('takes the language of the page when the element has no locale', async () => {
    document.documentElement.lang = 'de';
    service = fakeService({ 'GET /transactions': () => json(500, { result: false, message: 'Internal error.' }) });
    try {
      const el = document.createElement('transactions-table') as TransactionsTable;
      Object.assign(el, { sessionToken: 'wst_x', baseUrl: FAKE_BASE });
      await fixture(el);
      await waitUntil(() => maybePart(el, 'retry-button')?.textContent === 'Erneut versuchen', 'German retry button');
    } finally {
      document.documentElement.lang = '';
    }
  });
});
