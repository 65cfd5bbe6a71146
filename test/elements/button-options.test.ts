/** `disabled`, `strings.verb` against the merchant's label, and the pay page's messages from the pay link's origin. */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.ts';
import type { PayButton, RequestPaymentButton } from '../../src/index.ts';
import { clearSettingsCache } from '../../src/widget-api.ts';
import { eventWithin, FAKE_BASE, FAKE_KEY, fakeService, noEvent, ok, part } from './helpers.ts';

/** Pay links on another origin than the calls, as when PAYKIT_PUBLIC_URL differs from the address the page uses. */
const LINK_ORIGIN = 'https://links.fake.test';
const LINK = {
  link_id: 'lnk_options',
  pay_link: `${LINK_ORIGIN}/pay/tok_options`,
  order_id: 'order-options',
  amount: '10.00',
  expires_at: new Date(Date.now() + 3_600_000).toISOString(),
};

const message = (origin: string, data: Record<string, unknown>) =>
  new MessageEvent('message', { origin, data: { type: 'paykit:payment', order_id: LINK.order_id, ...data } });

describe('button options', () => {
  let service: ReturnType<typeof fakeService> | undefined;
  afterEach(() => {
    service?.restore();
    service = undefined;
    clearSettingsCache();
  });

  it('disabled: neither button can be pressed, by mouse or keyboard, until it is enabled again', async () => {
    service = fakeService({
      'POST /pay-links': () => ok(LINK),
      'POST /payment-requests': () => ok({ order_id: 'o', pay_link: LINK.pay_link }),
    });
    const pay = await fixture<PayButton>(
      html`<pay-button disabled amount="5" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    const request = await fixture<RequestPaymentButton>(
      html`<request-payment-button disabled amount="5" recipient-phone="+14155550123" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></request-payment-button>`,
    );
    for (const el of [pay, request]) {
      const button = part<HTMLButtonElement>(el, 'button');
      expect(el.disabled).to.equal(true);
      expect(button.disabled).to.equal(true);
      button.click();
      button.focus();
      expect(el.shadowRoot!.activeElement, 'a disabled button takes no focus').to.equal(null);
      await sendKeys({ press: 'Enter' });
      await expect(el).to.be.accessible();
    }
    await noEvent(pay, 'pay-error');
    expect(service.actions, 'no call while disabled').to.have.length(0);

    request.removeAttribute('disabled');
    await request.updateComplete;
    expect(part<HTMLButtonElement>(request, 'button').disabled).to.equal(false);
    const sent = eventWithin(request, 'request-sent');
    part(request, 'button').click();
    await sent;
  });

  it('strings.verb wins over the merchant’s configured label, which wins over the default verb', async () => {
    service = fakeService({
      'GET /settings': () =>
        ok({
          merchant_name: 'Tea Shop',
          environment: 'sandbox',
          button_label: 'Buy now',
          primary_color: '#00796b',
          text_color: '#ffffff',
        }),
    });
    const el = await fixture<PayButton>(
      html`<pay-button amount="5" locale="en-US" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    await waitUntil(() => part(el, 'label').textContent === 'Buy now $5.00', 'the merchant’s label');
    el.strings = { verb: 'Order' };
    await el.updateComplete;
    expect(part(el, 'label').textContent).to.equal('Order $5.00');
    el.amount = undefined;
    await el.updateComplete;
    expect(part(el, 'label').textContent).to.equal('Order');
  });

  it('the service’s default label ("Pay") is said in the element’s language', async () => {
    service = fakeService({
      'GET /settings': () =>
        ok({
          merchant_name: 'Tea Shop',
          environment: 'sandbox',
          button_label: 'Pay',
          primary_color: '#1a56db',
          text_color: '#ffffff',
        }),
    });
    const el = await fixture<PayButton>(
      html`<pay-button amount="5" locale="es-ES" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    await waitUntil(() => part(el, 'label').textContent!.startsWith('Pagar'), 'Spanish verb');
  });

  it('takes the outcome from the pay link’s own origin, and from nowhere else', async () => {
    service = fakeService({
      'POST /pay-links': () => ok(LINK),
      'GET /pay-links/lnk_options': () => ok({ ...LINK, status: 'open', transaction_id: null }),
    });
    const el = await fixture<PayButton>(
      html`<pay-button amount="10" locale="de-DE" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    part(el, 'button').click();
    const dialog = part<HTMLDialogElement>(el, 'dialog');
    await waitUntil(() => dialog.open, 'the dialog opens');
    const src = new URL(part<HTMLIFrameElement>(el, 'frame').src);
    expect(src.origin).to.equal(LINK_ORIGIN);
    expect(src.searchParams.get('locale'), 'the pay page speaks the element’s language').to.equal('de-DE');

    window.dispatchEvent(
      message('https://evil.example', { status: 'approved', transaction_id: 'txn_forged', amount: 10 }),
    );
    await noEvent(el, 'pay-success');
    const paid = eventWithin<CustomEvent>(el, 'pay-success');
    window.dispatchEvent(message(LINK_ORIGIN, { status: 'approved', transaction_id: 'txn_link_origin', amount: 10 }));
    expect((await paid).detail).to.deep.equal({
      transaction_id: 'txn_link_origin',
      order_id: LINK.order_id,
      amount: '10.00',
    });
  });
});
