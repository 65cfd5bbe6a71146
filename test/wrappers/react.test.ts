import { expect, waitUntil } from '@open-wc/testing';
import { createElement, createRef, StrictMode, version, type ReactElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import {
  PayButton,
  RequestPaymentButton,
  TransactionsTable,
  type PayButtonElement,
  type PayButtonProps,
  type PaySuccessDetail,
  type RequestPaymentButtonElement,
  type TransactionsTableElement,
} from '../../wrappers/react/index.ts';
import {
  container,
  onlyElement,
  part,
  payPageMessage,
  realService,
  recordFetches,
  uniqueOrderId,
  uniquePhone,
} from './helpers.ts';

// Compile-time: the event props take handlers of the element's typed events.
const typedHandler: NonNullable<PayButtonProps['onPaySuccess']> = (event: CustomEvent<PaySuccessDetail>) =>
  void event.detail.transaction_id;
void typedHandler;

describe(`paykit/react on React ${version}`, () => {
  let host: HTMLDivElement;
  let root: Root;
  let fetches: ReturnType<typeof recordFetches>;

  function render(element: ReactElement): void {
    flushSync(() => root.render(element));
  }

  beforeEach(() => {
    host = container();
    root = createRoot(host);
    fetches = recordFetches();
  });

  afterEach(() => {
    fetches.restore();
    root.unmount();
    host.remove();
  });

  it('runs on the React the runner serves (19, or 18 with PAYKIT_TEST_REACT=18)', function () {
    expect(Number(version.split('.')[0])).to.equal(realService(this).reactMajor);
  });

  it('passes props to <pay-button> as properties and follows re-renders', async function () {
    const service = realService(this);
    const props = {
      publicKey: service.publicKey,
      baseUrl: service.baseUrl,
      orderId: 'react-props',
      description: 'Tea',
      mode: 'popup' as const,
      locale: 'en-US',
    };
    render(
      createElement(PayButton, {
        ...props,
        amount: '12.5',
        showQr: true,
        pollInterval: 500,
        strings: { label: 'Pay {amount} now' },
      }),
    );
    const el = await onlyElement<PayButtonElement>(host, 'pay-button');
    expect([el.amount, el.orderId, el.description, el.mode, el.showQr, el.pollInterval]).to.deep.equal([
      '12.5',
      'react-props',
      'Tea',
      'popup',
      true,
      500,
    ]);
    expect([el.publicKey, el.baseUrl]).to.deep.equal([service.publicKey, service.baseUrl]);
    expect(part(el, 'label').textContent).to.equal('Pay $12.50 now');

    // (`strings` stays: @lit/react sets a removed prop to undefined, and the element needs an object there.)
    render(createElement(PayButton, { ...props, amount: '20', label: 'Buy the tea', strings: {} }));
    await el.updateComplete;
    expect(host.querySelector('pay-button')).to.equal(el);
    expect(el.amount).to.equal('20');
    expect(part(el, 'label').textContent).to.equal('Buy the tea');
  });

  it('a prop no longer passed (@lit/react sets it to undefined) leaves the element its default', async function () {
    const service = realService(this);
    render(
      createElement(PayButton, { amount: '3', locale: 'en-US', pollInterval: 500, strings: { label: 'Now {amount}' } }),
    );
    const button = await onlyElement<PayButtonElement>(host, 'pay-button');
    expect(part(button, 'label').textContent).to.equal('Now $3.00');
    render(createElement(PayButton, { amount: '3', locale: 'en-US' }));
    await button.updateComplete;
    expect([button.strings, button.pollInterval]).to.deep.equal([undefined, undefined]);
    expect(part(button, 'label').textContent).to.equal('Pay $3.00');

    const totals: number[] = [];
    const onTransactionsLoad = (event: CustomEvent<{ total: number }>) => totals.push(event.detail.total);
    const tableProps = { sessionToken: service.sessionToken, baseUrl: service.baseUrl, onTransactionsLoad };
    render(createElement(TransactionsTable, { ...tableProps, pageSize: 2 }));
    const table = await onlyElement<TransactionsTableElement>(host, 'transactions-table');
    await waitUntil(() => totals.length === 1, 'onTransactionsLoad', { timeout: 8000 });
    render(createElement(TransactionsTable, tableProps));
    await waitUntil(() => totals.length === 2, 'loaded again', { timeout: 8000 });
    await table.updateComplete;
    expect(table.shadowRoot!.querySelectorAll('tbody tr')).to.have.length(Math.min(totals[1]!, 20));
  });

  it('PayButton: a click creates a pay link at the service, opens the dialog, and the outcome reaches onPaySuccess', async function () {
    const service = realService(this);
    const orderId = uniqueOrderId('react_pay');
    const paid: CustomEvent<PaySuccessDetail>[] = [];
    render(
      createElement(PayButton, {
        amount: '12.34',
        orderId,
        publicKey: service.publicKey,
        baseUrl: service.baseUrl,
        onPaySuccess: (event) => paid.push(event),
      }),
    );
    const el = await onlyElement<PayButtonElement>(host, 'pay-button');
    part(el, 'button').click();
    const dialog = part<HTMLDialogElement>(el, 'dialog');
    await waitUntil(() => dialog.open, 'the pay dialog opens', { timeout: 8000 });
    expect(part<HTMLIFrameElement>(el, 'frame').src).to.match(new RegExp(`^${service.baseUrl}/pay/`));
    expect(fetches.actions.filter((call) => call.method === 'POST')).to.have.length(1);

    window.dispatchEvent(
      payPageMessage(new URL(service.baseUrl).origin, {
        status: 'approved',
        transaction_id: 'txn_react',
        order_id: orderId,
        amount: 12.34,
      }),
    );
    await waitUntil(() => paid.length > 0, 'onPaySuccess');
    expect(paid).to.have.length(1);
    expect(paid[0]!.type).to.equal('pay-success');
    expect(paid[0]!.target).to.equal(el);
    expect(paid[0]!.detail).to.deep.equal({ transaction_id: 'txn_react', order_id: orderId, amount: '12.34' });
  });

  it('PayButton: closing the dialog reaches onPayCancel, a bad amount onPayError; a replaced handler is the one called', async function () {
    const service = realService(this);
    const seen: string[] = [];
    const props = {
      amount: '4.00',
      orderId: uniqueOrderId('react_cancel'),
      publicKey: service.publicKey,
      baseUrl: service.baseUrl,
    };
    render(
      createElement(PayButton, { ...props, onPayCancel: (event) => seen.push(`first:${event.type}:${event.detail}`) }),
    );
    render(
      createElement(PayButton, {
        ...props,
        onPayCancel: (event) => seen.push(`${event.type}:${event.detail}`),
        onPayError: (event) => seen.push(`error:${event.detail.message}`),
      }),
    );
    const el = await onlyElement<PayButtonElement>(host, 'pay-button');
    part(el, 'button').click();
    const dialog = part<HTMLDialogElement>(el, 'dialog');
    await waitUntil(() => dialog.open, 'the pay dialog opens', { timeout: 8000 });
    part(el, 'close-button').click();
    await waitUntil(() => seen.length > 0, 'onPayCancel');
    expect(seen).to.deep.equal(['pay-cancel:null']);

    render(
      createElement(PayButton, {
        ...props,
        amount: 'ten',
        onPayError: (event) => seen.push(`error:${event.detail.message}`),
      }),
    );
    part(el, 'button').click();
    await waitUntil(() => seen.length > 1, 'onPayError');
    expect(seen[1]).to.match(/^error:.*"ten" is not a price/);
  });

  it('RequestPaymentButton: sends the request at the service and reaches onRequestSent; a bad phone reaches onRequestError', async function () {
    const service = realService(this);
    const orderId = uniqueOrderId('react_request');
    const sent: { order_id: string; pay_link: string }[] = [];
    const errors: string[] = [];
    const props = {
      amount: '5.00',
      orderId,
      publicKey: service.publicKey,
      baseUrl: service.baseUrl,
      onRequestSent: (event: CustomEvent<{ order_id: string; pay_link: string }>) => sent.push(event.detail),
      onRequestError: (event: CustomEvent<{ message: string }>) => errors.push(event.detail.message),
    };
    const phone = uniquePhone();
    render(createElement(RequestPaymentButton, { ...props, recipientPhone: phone }));
    const el = await onlyElement<RequestPaymentButtonElement>(host, 'request-payment-button');
    expect(el.recipientPhone).to.equal(phone);
    part(el, 'button').click();
    await waitUntil(() => sent.length > 0, 'onRequestSent', { timeout: 8000 });
    expect(sent[0]!.order_id).to.equal(orderId);
    expect(sent[0]!.pay_link.startsWith(`${service.baseUrl}/pay/`)).to.equal(true);

    render(createElement(RequestPaymentButton, { ...props, recipientPhone: 'call me' }));
    part(el, 'button').click();
    await waitUntil(() => errors.length > 0, 'onRequestError');
    expect(errors[0]).to.match(/is not a phone number/);
    expect(sent).to.have.length(1);
  });

  it('TransactionsTable: lists with the session token and reaches onTransactionsLoad; a refused token reaches onTransactionsError', async function () {
    const service = realService(this);
    const totals: number[] = [];
    const errors: string[] = [];
    const handlers = {
      onTransactionsLoad: (event: CustomEvent<{ total: number }>) => totals.push(event.detail.total),
      onTransactionsError: (event: CustomEvent<{ message: string }>) => errors.push(event.detail.message),
    };
    render(
      createElement(TransactionsTable, {
        sessionToken: service.sessionToken,
        baseUrl: service.baseUrl,
        pageSize: 2,
        ...handlers,
      }),
    );
    const el = await onlyElement<TransactionsTableElement>(host, 'transactions-table');
    expect(el.pageSize).to.equal(2);
    await waitUntil(() => totals.length > 0, 'onTransactionsLoad', { timeout: 8000 });
    expect(totals[0]).to.be.at.least(3);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll('tbody tr')).to.have.length(2);

    render(
      createElement(TransactionsTable, {
        sessionToken: 'wst_not_a_token',
        baseUrl: service.baseUrl,
        pageSize: 2,
        ...handlers,
      }),
    );
    await waitUntil(() => errors.length > 0, 'onTransactionsError', { timeout: 8000 });
    expect(errors[0]).to.be.a('string').and.not.equal('');
  });

  describe('in StrictMode (development: effects mount, unmount and mount again)', () => {
    it('PayButton: one element, one pay link, one handler call', async function () {
      const service = realService(this);
      const orderId = uniqueOrderId('react_strict');
      const paid: PaySuccessDetail[] = [];
      render(
        createElement(
          StrictMode,
          null,
          createElement(PayButton, {
            amount: '9.99',
            orderId,
            publicKey: service.publicKey,
            baseUrl: service.baseUrl,
            onPaySuccess: (event) => paid.push(event.detail),
          }),
        ),
      );
      const el = await onlyElement<PayButtonElement>(host, 'pay-button');
      expect(document.querySelectorAll('pay-button')).to.have.length(1);
      part(el, 'button').click();
      const dialog = part<HTMLDialogElement>(el, 'dialog');
      await waitUntil(() => dialog.open, 'the pay dialog opens', { timeout: 8000 });
      expect(fetches.actions.filter((call) => call.method === 'POST').map((call) => call.path)).to.have.length(1);
      expect(el.shadowRoot!.querySelectorAll('dialog[open]')).to.have.length(1);

      window.dispatchEvent(
        payPageMessage(new URL(service.baseUrl).origin, {
          status: 'approved',
          transaction_id: 'txn_strict',
          order_id: orderId,
          amount: 9.99,
        }),
      );
      await waitUntil(() => paid.length > 0, 'onPaySuccess');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(paid).to.deep.equal([{ transaction_id: 'txn_strict', order_id: orderId, amount: '9.99' }]);
    });

    it('RequestPaymentButton and TransactionsTable: one request each, one event each', async function () {
      const service = realService(this);
      const sent: string[] = [];
      const loads: number[] = [];
      render(
        createElement(
          StrictMode,
          null,
          createElement(RequestPaymentButton, {
            amount: '3.00',
            recipientPhone: uniquePhone(),
            publicKey: service.publicKey,
            baseUrl: service.baseUrl,
            onRequestSent: (event) => sent.push(event.detail.order_id),
          }),
          createElement(TransactionsTable, {
            sessionToken: service.sessionToken,
            baseUrl: service.baseUrl,
            onTransactionsLoad: (event) => loads.push(event.detail.total),
          }),
        ),
      );
      const button = await onlyElement<RequestPaymentButtonElement>(host, 'request-payment-button');
      await onlyElement<TransactionsTableElement>(host, 'transactions-table');
      await waitUntil(() => loads.length > 0, 'onTransactionsLoad', { timeout: 8000 });
      part(button, 'button').click();
      await waitUntil(() => sent.length > 0, 'onRequestSent', { timeout: 8000 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sent).to.have.length(1);
      expect(loads).to.have.length(1);
      const actions = fetches.actions.map((call) => `${call.method} ${call.path.replace(/pk_[\w-]+/, 'pk')}`);
      expect(actions.filter((call) => call.startsWith('POST'))).to.have.length(1);
      expect(actions.filter((call) => call.includes('/transactions'))).to.have.length(1);
    });
  });

  it('unmounting removes the element', async function () {
    const service = realService(this);
    render(createElement(PayButton, { amount: '1.00', publicKey: service.publicKey, baseUrl: service.baseUrl }));
    await onlyElement<PayButtonElement>(host, 'pay-button');
    render(createElement('p', null, 'gone'));
    expect(host.querySelector('pay-button')).to.equal(null);
    expect(host.textContent).to.equal('gone');
  });

  it('a ref gives the element, whose reload() lists again', async function () {
    const service = realService(this);
    const totals: number[] = [];
    const table = createRef<TransactionsTableElement>();
    render(
      createElement(TransactionsTable, {
        ref: table,
        sessionToken: service.sessionToken,
        baseUrl: service.baseUrl,
        onTransactionsLoad: (event) => totals.push(event.detail.total),
      }),
    );
    await waitUntil(() => totals.length === 1, 'first load', { timeout: 8000 });
    expect(table.current).to.equal(host.querySelector('transactions-table'));
    await table.current!.reload();
    expect(totals).to.have.length(2);
  });

  it('sets nothing for a prop passed as undefined, and a removed handler stops listening', async function () {
    const service = realService(this);
    const seen: string[] = [];
    render(
      createElement(PayButton, {
        amount: '3',
        mode: undefined,
        pollInterval: undefined,
        publicKey: service.publicKey,
        baseUrl: service.baseUrl,
        onPayError: () => seen.push('error'),
      }),
    );
    const el = await onlyElement<PayButtonElement>(host, 'pay-button');
    expect([el.mode, el.pollInterval], 'the element’s defaults').to.deep.equal(['dialog', 2000]);
    render(createElement(PayButton, { amount: 'ten', publicKey: service.publicKey, baseUrl: service.baseUrl }));
    part(el, 'button').click();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).to.deep.equal([]);
  });
});
