/**
 * Every `*-error` event carries a stable `code` beside its message: what a page's code can act on whatever the
 * language. The page's Content-Security-Policy is found out from its `securitypolicyviolation` reports, here
 * dispatched as the browser does (test/pages/csp.test.ts has the real policy in Chromium).
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.ts';
import type { PayButton, RequestPaymentButton, TransactionsTable } from '../../src/index.ts';
import { clearSettingsCache } from '../../src/widget-api.ts';
import { REFUSAL_REASONS } from '../../contract/refusal-reasons.ts';
import { STATUS_OF_REASON } from '../../server/plugins/refusal-status.ts';
import {
  eventWithin,
  FAKE_BASE,
  FAKE_KEY,
  fakeService,
  json,
  ok,
  part,
  realService,
  type FakeRoute,
} from './helpers.ts';

const LINK = {
  link_id: 'lnk_codes',
  pay_link: `${FAKE_BASE}/pay/tok_codes`,
  order_id: 'order-codes',
  amount: '10.00',
  expires_at: new Date(Date.now() + 3_600_000).toISOString(),
};

/** A report of the page's policy refusing `url`, as the browser dispatches it. */
function refuse(url: string, effectiveDirective: string): void {
  document.dispatchEvent(
    new SecurityPolicyViolationEvent('securitypolicyviolation', {
      blockedURI: url,
      effectiveDirective,
      violatedDirective: effectiveDirective,
      originalPolicy: "default-src 'self'",
      disposition: 'enforce',
      statusCode: 200,
    }),
  );
}

/** A fetch the browser refused: it fails like any network failure, and the report follows. */
const refusedBy =
  (directive: string): FakeRoute =>
  ({ url }) => {
    setTimeout(() => refuse(url.href, directive));
    throw new TypeError('Failed to fetch');
  };

const SHOPPER_CSP = 'This page cannot reach the payment service. Please let the shop know.';

/** Records what goes to console.error until `restore()`, which gives it back. */
function captureConsoleErrors(): { restore(): unknown[] } {
  const original = console.error;
  const logged: unknown[] = [];
  console.error = (...args: unknown[]) => logged.push(...args);
  return { restore: () => ((console.error = original), logged) };
}

async function payError(el: PayButton): Promise<{ code: string; message: string; developerMessage?: string }> {
  const failed = eventWithin<CustomEvent>(el, 'pay-error');
  part(el, 'button').click();
  return (await failed).detail;
}

describe('error codes', () => {
  let service: ReturnType<typeof fakeService> | undefined;
  afterEach(() => {
    service?.restore();
    service = undefined;
    clearSettingsCache();
  });

  it('config and invalid_request: what the page gave the element, before any call', async () => {
    service = fakeService({});
    const unconfigured = await fixture<PayButton>(html`<pay-button amount="5"></pay-button>`);
    expect(await payError(unconfigured))
      .to.include({ code: 'config' })
      .and.have.property('message')
      .match(/no public key/);
    const badAmount = await fixture<PayButton>(
      html`<pay-button amount="ten" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    expect(await payError(badAmount)).to.include({ code: 'invalid_request' });
    expect(service.actions).to.have.length(0);
  });

  it('each reason the service refuses for is the element’s code, with the service’s message', async () => {
    expect(REFUSAL_REASONS).to.have.length(Object.keys(STATUS_OF_REASON).length);
    for (const reason of REFUSAL_REASONS) {
      const status = STATUS_OF_REASON[reason];
      const message = `Refused for ${reason}.`;
      service = fakeService({
        'POST /pay-links': () =>
          json(status, { result: false, message, code: reason }, status === 429 ? { 'retry-after': '30' } : {}),
      });
      const el = await fixture<PayButton>(
        html`<pay-button amount="5" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
      );
      expect(await payError(el), reason).to.deep.equal({ code: reason, message });
      service.restore();
      clearSettingsCache();
    }
  });

  it('an answer without a code (a proxy’s page) falls back to its HTTP status', async () => {
    const cases: [number, string][] = [
      [400, 'invalid_request'],
      [401, 'authentication_failed'],
      [403, 'forbidden'],
      [404, 'not_found'],
      [409, 'conflict'],
      [413, 'body_too_large'],
      [415, 'unsupported_content_type'],
      [418, 'invalid_request'],
      [429, 'rate_limited'],
      [500, 'service_error'],
      [503, 'service_error'],
    ];
    for (const [status, code] of cases) {
      const message = `Refused with ${status}.`;
      service = fakeService({ 'POST /pay-links': () => json(status, { result: false, message }) });
      const el = await fixture<PayButton>(
        html`<pay-button amount="5" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
      );
      expect(await payError(el), `${status}`).to.deep.equal({ code, message });
      service.restore();
      clearSettingsCache();
    }
    service = fakeService({
      'POST /pay-links': () => json(503, { result: false, message: 'Down.', code: 'Not A Code <b>' }),
    });
    const el = await fixture<PayButton>(
      html`<pay-button amount="5" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    expect(await payError(el), 'a code that is not a name').to.deep.equal({ code: 'service_error', message: 'Down.' });
  });

  it('network: no answer at all', async () => {
    const el = await fixture<PayButton>(
      html`<pay-button amount="5" public-key="pk_nowhere" base-url="http://127.0.0.1:9"></pay-button>`,
    );
    expect(await payError(el)).to.deep.equal({
      code: 'network',
      message: 'Could not reach the payment service. Try again.',
    });
  });

  it('csp: a call the page’s policy refused: the payer reads a short sentence, the developer the directive to add', async () => {
    service = fakeService({ 'POST /pay-links': refusedBy('connect-src'), 'GET /settings': refusedBy('connect-src') });
    const logged = captureConsoleErrors();
    const el = await fixture<PayButton>(
      html`<pay-button amount="5" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    const developerMessage = `The page's Content-Security-Policy blocks ${FAKE_BASE} (connect-src): add ${FAKE_BASE} to its connect-src directive.`;
    expect(await payError(el)).to.deep.equal({ code: 'csp', message: SHOPPER_CSP, developerMessage });
    await el.updateComplete;
    expect(part(el, 'error').textContent!.trim()).to.equal(SHOPPER_CSP);
    expect(logged.restore()).to.deep.equal([developerMessage]);

    const french = await fixture<PayButton>(
      html`<pay-button amount="5" locale="fr" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    const frenchError = await payError(french);
    expect(frenchError).to.include({
      code: 'csp',
      message: 'Cette page ne peut pas joindre le service de paiement. Prévenez la boutique.',
      developerMessage,
    });
    await french.updateComplete;
    expect(part(french, 'error').textContent).not.to.match(/connect-src|Content-Security-Policy/);

    service.restore();
    service = fakeService({ 'GET /transactions': refusedBy('connect-src') });
    const table = document.createElement('transactions-table') as TransactionsTable;
    Object.assign(table, { sessionToken: 'wst_x', baseUrl: FAKE_BASE });
    const failed = eventWithin<CustomEvent>(table, 'transactions-error');
    await fixture(table);
    expect((await failed).detail).to.include({ code: 'csp', message: SHOPPER_CSP });
    await table.updateComplete;
    expect(table.shadowRoot!.textContent)
      .to.include(SHOPPER_CSP)
      .and.not.match(/connect-src/);
  });

  it('csp: a payment window the page’s policy refused to frame ends the attempt with the directive to add', async () => {
    service = fakeService({
      'POST /pay-links': () => ok(LINK),
      'GET /pay-links/lnk_codes': () => ok({ ...LINK, status: 'open', transaction_id: null }),
    });
    const el = await fixture<PayButton>(
      html`<pay-button amount="10" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    const failed = eventWithin<CustomEvent>(el, 'pay-error');
    part(el, 'button').click();
    const dialog = part<HTMLDialogElement>(el, 'dialog');
    await waitUntil(() => dialog.open, 'the dialog opens');
    // Another origin's refusal is not this button's.
    refuse('https://elsewhere.example/frame', 'frame-src');
    refuse(`${LINK.pay_link}?origin=x`, 'frame-src');
    expect((await failed).detail).to.deep.equal({
      code: 'csp',
      message: SHOPPER_CSP,
      developerMessage: `The page's Content-Security-Policy blocks ${FAKE_BASE} (frame-src): add ${FAKE_BASE} to its frame-src directive.`,
    });
    await el.updateComplete;
    expect(part(el, 'error').textContent!.trim()).to.equal(SHOPPER_CSP);
    expect(dialog.open).to.equal(false);
    expect(el.matches(':state(error)')).to.equal(true);
  });

  it('declined and expired: the payment’s own outcomes', async () => {
    service = fakeService({
      'POST /pay-links': () => ok(LINK),
      'GET /pay-links/lnk_codes': () => ok({ ...LINK, status: 'expired', transaction_id: null }),
    });
    const el = await fixture<PayButton>(
      html`<pay-button amount="10" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    el.pollInterval = 30;
    expect(await payError(el)).to.deep.equal({ code: 'expired', message: 'The payment link expired. Try again.' });
  });

  it('request-payment-button: config, invalid_request and rate_limited', async () => {
    service = fakeService({
      'POST /payment-requests': () =>
        json(429, {
          result: false,
          code: 'rate_limited',
          message: '+14155550123 was already sent 5 texts for this merchant in the last hour: try again later.',
        }),
    });
    const codes: string[] = [];
    for (const phone of [undefined, 'call me', '+14155550123']) {
      const el = await fixture<RequestPaymentButton>(
        html`<request-payment-button amount="5" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></request-payment-button>`,
      );
      if (phone) el.recipientPhone = phone;
      const failed = eventWithin<CustomEvent>(el, 'request-error');
      part(el, 'button').click();
      codes.push((await failed).detail.code);
    }
    expect(codes).to.deep.equal(['config', 'invalid_request', 'rate_limited']);
  });

  it('transactions-table: config without a token, authentication_failed for a refused one (the real service)', async function () {
    const real = realService(this);
    const codes: string[] = [];
    for (const token of ['', 'wst_not_a_token']) {
      const table = document.createElement('transactions-table') as TransactionsTable;
      Object.assign(table, { sessionToken: token, baseUrl: real.baseUrl });
      const failed = eventWithin<CustomEvent>(table, 'transactions-error', 8000);
      await fixture(table);
      codes.push((await failed).detail.code);
    }
    expect(codes).to.deep.equal(['config', 'authentication_failed']);
  });

  it('a public key the service does not know: the service’s reason (the real service)', async function () {
    const real = realService(this);
    const el = await fixture<PayButton>(
      html`<pay-button amount="6" public-key="pk_does_not_exist" base-url=${real.baseUrl}></pay-button>`,
    );
    expect(await payError(el)).to.deep.equal({ code: 'not_found', message: 'Unknown public key.' });
  });
});
