import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.ts';
import type { PayButton } from '../../src/index.ts';
import { clearSettingsCache } from '../../src/widget-api.ts';
import { FAKE_BASE, FAKE_KEY, eventWithin, fakeService, json, ok, part, type FakeCall } from './helpers.ts';

/** Issue 44: `receipt-email` passes the shopper's address to the pay link, whose page starts its receipt field with it. */
describe('<pay-button receipt-email>', () => {
  let service: ReturnType<typeof fakeService> | undefined;
  afterEach(() => {
    service?.restore();
    service = undefined;
    clearSettingsCache();
  });
  let made = 0;
  const link = () => ({
    link_id: `lnk_${++made}`,
    pay_link: `${FAKE_BASE}/pay/tok_${made}`,
    order_id: 'order-1',
    amount: '10.00',
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  });
  const created = (calls: FakeCall[]) => calls.filter((call) => call.method === 'POST').map((call) => call.body);
  /** Pressed by keyboard, then the payment window closed again. */
  async function pay(el: PayButton) {
    part(el, 'button').focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => el.matches(':state(open)'), 'the payment window');
    const cancelled = eventWithin(el, 'pay-cancel');
    part<HTMLDialogElement>(el, 'dialog').close();
    await cancelled;
  }

  it('sends the address with the pay link, only when given; a new address makes a new link', async () => {
    service = fakeService({ 'POST /pay-links': () => ok(link()) });
    const el = await fixture<PayButton>(
      html`<pay-button amount="10" receipt-email="kim@example.com" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    expect(el.receiptEmail).to.equal('kim@example.com');
    await pay(el);
    expect(created(service.calls)).to.deep.equal([{ amount: '10', receipt_email: 'kim@example.com' }]);
    await pay(el);
    expect(created(service.calls).length, 'the same link again').to.equal(1);
    el.receiptEmail = 'lee@example.com';
    await pay(el);
    expect(created(service.calls).at(-1)).to.deep.equal({ amount: '10', receipt_email: 'lee@example.com' });
    el.removeAttribute('receipt-email');
    await pay(el);
    expect(created(service.calls).at(-1), 'none: the field starts empty').to.deep.equal({ amount: '10' });
    await expect(el).to.be.accessible();
  });

  it('an address the service refuses fails the click with its message and invalid_request', async () => {
    const message = 'receipt_email "kim@" is not an e-mail address: send one such as name@example.com, or none.';
    service = fakeService({
      'POST /pay-links': () => json(400, { result: false, code: 'invalid_request', message }),
    });
    const el = await fixture<PayButton>(
      html`<pay-button amount="10" receipt-email="kim@" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></pay-button>`,
    );
    const failed = eventWithin<CustomEvent>(el, 'pay-error');
    part(el, 'button').click();
    expect((await failed).detail).to.deep.equal({ code: 'invalid_request', message });
    await el.updateComplete;
    expect(part(el, 'error').textContent).to.equal(message);
  });
});
