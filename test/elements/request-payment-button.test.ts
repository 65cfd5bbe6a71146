import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.ts';
import type { RequestPaymentButton } from '../../src/index.ts';
import { clearSettingsCache } from '../../src/widget-api.ts';
import { normalizePhone } from '../../rules/phone.ts';
import {
  eventWithin,
  FAKE_BASE,
  FAKE_KEY,
  fakeService,
  pageStyle,
  part,
  pending,
  realService,
  recordFetches,
  uniqueOrderId,
  uniquePhone,
} from './helpers.ts';

describe('the phone rule', () => {
  it('is the service’s: "+" and 8–15 digits, or ten North American digits, punctuation ignored', () => {
    expect(normalizePhone('+44 20 7946 0958')).to.equal('+442079460958');
    expect(normalizePhone('(415) 555-0123')).to.equal('+14155550123');
    expect(normalizePhone('1.415.555.0123')).to.equal('+14155550123');
    expect(normalizePhone('+1234567')).to.equal(null);
    expect(normalizePhone('+1234567890123456')).to.equal(null);
    expect(normalizePhone('555-0123')).to.equal(null);
    expect(normalizePhone('call me')).to.equal(null);
  });
});

describe('<request-payment-button> without the service', () => {
  let service: ReturnType<typeof fakeService> | undefined;
  afterEach(() => {
    service?.restore();
    service = undefined;
    clearSettingsCache();
  });

  it('is a real, labelled button, accessible when idle', async () => {
    const el = await fixture<RequestPaymentButton>(
      html`<request-payment-button amount="5" recipient-phone="+14155550123" locale="en-US"></request-payment-button>`,
    );
    const button = part<HTMLButtonElement>(el, 'button');
    expect(button.localName).to.equal('button');
    expect(button.textContent!.trim()).to.equal('Request $5.00');
    expect(button.getBoundingClientRect().height).to.be.at.least(44);
    expect(el.recipientPhone).to.equal('+14155550123');
    await expect(el).to.be.accessible();

    el.strings = { label: 'Demander {amount}' };
    el.locale = 'fr-FR';
    await el.updateComplete;
    expect(part(el, 'label').textContent!.replace(/\s/g, ' ')).to.equal('Demander 5,00 $US');
    el.label = 'Text the customer';
    await el.updateComplete;
    expect(part(el, 'label').textContent).to.equal('Text the customer');
  });

  it('refuses a phone number that is not one, without calling the service', async () => {
    service = fakeService({});
    const el = await fixture<RequestPaymentButton>(
      html`<request-payment-button amount="5" recipient-phone="555-0123" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></request-payment-button>`,
    );
    const failed = eventWithin<CustomEvent>(el, 'request-error');
    part(el, 'button').click();
    expect((await failed).detail.message).to.equal(
      '"555-0123" is not a phone number: use "+" and the country code, or ten digits, e.g. +14155550123.',
    );
    await el.updateComplete;
    expect(part(el, 'error').getAttribute('role')).to.equal('alert');
    expect(part(el, 'error').textContent).to.match(/not a phone number/);
    expect(el.matches(':state(error)')).to.equal(true);
    expect(service.actions).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('asks for a phone when there is none, and for a price, by keyboard', async () => {
    const el = await fixture<RequestPaymentButton>(html`<request-payment-button amount="5"></request-payment-button>`);
    part(el, 'button').focus();
    const noPhone = eventWithin<CustomEvent>(el, 'request-error');
    await sendKeys({ press: 'Enter' });
    expect((await noPhone).detail.message).to.match(/Set recipient-phone/);
    el.recipientPhone = '+14155550123';
    el.amount = '0';
    await el.updateComplete;
    const noAmount = eventWithin<CustomEvent>(el, 'request-error');
    await sendKeys({ press: 'Space' });
    expect((await noAmount).detail.message).to.match(/"0" is not a price/);
  });

  it('is busy and announced while sending, and sends the phone in E.164', async () => {
    service = fakeService({ 'POST /payment-requests': pending });
    const el = await fixture<RequestPaymentButton>(
      html`<request-payment-button amount="5" recipient-phone="(415) 555-0123" order-id="o-9" public-key=${FAKE_KEY} base-url=${FAKE_BASE}></request-payment-button>`,
    );
    part(el, 'button').click();
    await el.updateComplete;
    expect(part(el, 'button').getAttribute('aria-busy')).to.equal('true');
    expect(part(el, 'status').textContent).to.equal('Sending the payment request…');
    expect(service.actions[0]!.body).to.deep.equal({ amount: '5', recipient_phone: '+14155550123', order_id: 'o-9' });
    part(el, 'button').click();
    expect(service.actions).to.have.length(1);
    await expect(el).to.be.accessible();
  });

  it('themes through --paykit-* properties and ::part()', async () => {
    const remove =
      pageStyle(`request-payment-button.themed { --paykit-primary-color: rgb(10, 20, 30); --paykit-target-size: 56px; }
      request-payment-button.themed::part(status) { font-style: italic; }`);
    try {
      const el = await fixture<RequestPaymentButton>(
        html`<request-payment-button class="themed" amount="5"></request-payment-button>`,
      );
      expect(getComputedStyle(part(el, 'button')).backgroundColor).to.equal('rgb(10, 20, 30)');
      expect(part(el, 'button').getBoundingClientRect().height).to.be.at.least(56);
      expect(getComputedStyle(part(el, 'status')).fontStyle).to.equal('italic');
    } finally {
      remove();
    }
  });
});

describe('<request-payment-button> with the service', function () {
  this.timeout(15000);

  it('sends a payment request for a valid phone and shows it sent', async function () {
    const service = realService(this);
    const orderId = uniqueOrderId('wtr_request');
    const el = await fixture<RequestPaymentButton>(
      html`<request-payment-button amount="8.25" recipient-phone="+1 (415) 555-0199" order-id=${orderId} public-key=${service.publicKey} base-url=${service.baseUrl}></request-payment-button>`,
    );
    const sent = eventWithin<CustomEvent>(el, 'request-sent', 8000);
    part(el, 'button').click();
    const event = await sent;
    expect(event.detail.order_id).to.equal(orderId);
    expect(event.detail.pay_link).to.match(/^https?:\/\//);
    expect(Object.keys(event.detail).sort()).to.deep.equal(['order_id', 'pay_link']);
    await el.updateComplete;
    expect(part(el, 'status').textContent).to.equal('Payment request sent to +14155550199.');
    expect(el.matches(':state(sent)')).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('refuses an invalid phone without calling the service', async function () {
    const service = realService(this);
    const fetches = recordFetches();
    try {
      const el = await fixture<RequestPaymentButton>(
        html`<request-payment-button amount="8" recipient-phone="12345" public-key=${service.publicKey} base-url=${service.baseUrl}></request-payment-button>`,
      );
      const failed = eventWithin<CustomEvent>(el, 'request-error');
      part(el, 'button').click();
      expect((await failed).detail.message).to.match(/"12345" is not a phone number/);
      expect(fetches.writes).to.deep.equal([]);
    } finally {
      fetches.restore();
    }
  });

  it('shows the service’s refusal of a used order id', async function () {
    const service = realService(this);
    const el = await fixture<RequestPaymentButton>(
      html`<request-payment-button amount="9" recipient-phone=${uniquePhone()} order-id=${uniqueOrderId('wtr_twice')} public-key=${service.publicKey} base-url=${service.baseUrl}></request-payment-button>`,
    );
    const sent = eventWithin<CustomEvent>(el, 'request-sent', 8000);
    part(el, 'button').click();
    await sent;
    const failed = eventWithin<CustomEvent>(el, 'request-error', 8000);
    part(el, 'button').click();
    const { message } = (await failed).detail;
    expect(message).to.match(/already used/);
    await el.updateComplete;
    expect(part(el, 'error').textContent).to.equal(message);
    expect(part(el, 'status').textContent).to.equal('');
    await expect(el).to.be.accessible();
  });
});
