import { expect, waitUntil } from '@open-wc/testing';
import { createApp, h, nextTick, ref, type App, type Component } from 'vue';
// The full build, with the template compiler, for the bare tags as a Vue user writes them in a template.
import { createApp as createAppWithCompiler } from 'vue/dist/vue.esm-bundler.js';
import { PayButton, RequestPaymentButton, TransactionsTable, type PaySuccessDetail } from '../../wrappers/vue/index.ts';
import { compilerOptions } from '../../wrappers/vue/compiler.ts';
import type {
  PayButton as PayButtonElement,
  RequestPaymentButton as RequestPaymentButtonElement,
  TransactionsTable as TransactionsTableElement,
} from '../../src/index.ts';
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

describe('paykit/vue', () => {
  let host: HTMLDivElement;
  let app: App | undefined;
  let fetches: ReturnType<typeof recordFetches>;

  function mount(render: () => ReturnType<typeof h>): void {
    app = createApp({ render });
    app.mount(host);
  }

  beforeEach(() => {
    host = container();
    fetches = recordFetches();
  });

  afterEach(() => {
    fetches.restore();
    app?.unmount();
    app = undefined;
    host.remove();
  });

  it('passes props to <pay-button> as properties and follows reactive changes', async function () {
    const service = realService(this);
    const amount = ref('12.5');
    const label = ref<string | undefined>(undefined);
    mount(() =>
      h(PayButton, {
        amount: amount.value,
        label: label.value,
        orderId: 'vue-props',
        description: 'Tea',
        mode: 'popup',
        showQr: true,
        pollInterval: 500,
        locale: 'en-US',
        strings: { label: 'Pay {amount} now' },
        publicKey: service.publicKey,
        baseUrl: service.baseUrl,
      }),
    );
    const el = await onlyElement<PayButtonElement>(host, 'pay-button');
    expect([el.amount, el.orderId, el.description, el.mode, el.showQr, el.pollInterval]).to.deep.equal([
      '12.5',
      'vue-props',
      'Tea',
      'popup',
      true,
      500,
    ]);
    expect([el.publicKey, el.baseUrl]).to.deep.equal([service.publicKey, service.baseUrl]);
    // Properties, not attributes: nothing like an "orderid" attribute appears.
    expect(el.getAttributeNames().filter((name) => name.toLowerCase().includes('order'))).to.deep.equal([]);
    expect(part(el, 'label').textContent).to.equal('Pay $12.50 now');

    amount.value = '20';
    label.value = 'Buy the tea';
    await nextTick();
    await el.updateComplete;
    expect(host.querySelector('pay-button')).to.equal(el);
    expect(el.amount).to.equal('20');
    expect(part(el, 'label').textContent).to.equal('Buy the tea');
  });

  it('PayButton: a click creates a pay link at the service, opens the dialog; the outcome and a cancel reach the handlers', async function () {
    const service = realService(this);
    const orderId = uniqueOrderId('vue_pay');
    const paid: PaySuccessDetail[] = [];
    const cancels: (null | undefined)[] = [];
    mount(() =>
      h(PayButton, {
        amount: '12.34',
        orderId,
        publicKey: service.publicKey,
        baseUrl: service.baseUrl,
        onPaySuccess: (event: CustomEvent<PaySuccessDetail>) => paid.push(event.detail),
        onPayCancel: (event: CustomEvent<null>) => cancels.push(event.detail),
      }),
    );
    const el = await onlyElement<PayButtonElement>(host, 'pay-button');
    const dialog = part<HTMLDialogElement>(el, 'dialog');

    part(el, 'button').click();
    await waitUntil(() => dialog.open, 'the pay dialog opens', { timeout: 8000 });
    part(el, 'close-button').click();
    await waitUntil(() => cancels.length > 0, 'payCancel');
    expect(cancels).to.deep.equal([null]);

    part(el, 'button').click();
    await waitUntil(() => dialog.open, 'the pay dialog opens again', { timeout: 8000 });
    window.dispatchEvent(
      payPageMessage(new URL(service.baseUrl).origin, {
        status: 'approved',
        transaction_id: 'txn_vue',
        order_id: orderId,
        amount: 12.34,
      }),
    );
    await waitUntil(() => paid.length > 0, 'paySuccess');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(paid).to.deep.equal([{ transaction_id: 'txn_vue', order_id: orderId, amount: '12.34' }]);
    // The open link was reused for the second try: one pay link in all.
    expect(fetches.actions.filter((call) => call.method === 'POST')).to.have.length(1);
  });

  it('RequestPaymentButton: the request reaches the service and requestSent the handler; a bad phone reaches requestError', async function () {
    const service = realService(this);
    const orderId = uniqueOrderId('vue_request');
    const number = uniquePhone();
    const phone = ref(number);
    const sent: { order_id: string; pay_link: string }[] = [];
    const errors: string[] = [];
    mount(() =>
      h(RequestPaymentButton, {
        amount: '5.00',
        orderId,
        recipientPhone: phone.value,
        publicKey: service.publicKey,
        baseUrl: service.baseUrl,
        onRequestSent: (event: CustomEvent<{ order_id: string; pay_link: string }>) => sent.push(event.detail),
        onRequestError: (event: CustomEvent<{ message: string }>) => errors.push(event.detail.message),
      }),
    );
    const el = await onlyElement<RequestPaymentButtonElement>(host, 'request-payment-button');
    expect(el.recipientPhone).to.equal(number);
    part(el, 'button').click();
    await waitUntil(() => sent.length > 0, 'requestSent', { timeout: 8000 });
    expect(sent[0]!.order_id).to.equal(orderId);
    expect(sent[0]!.pay_link.startsWith(`${service.baseUrl}/pay/`)).to.equal(true);

    phone.value = 'call me';
    await nextTick();
    await el.updateComplete;
    part(el, 'button').click();
    await waitUntil(() => errors.length > 0, 'requestError');
    expect(errors[0]).to.match(/is not a phone number/);
  });

  it('TransactionsTable: one listing with the session token, and transactionsLoad with its total', async function () {
    const service = realService(this);
    const totals: number[] = [];
    mount(() =>
      h(TransactionsTable, {
        sessionToken: service.sessionToken,
        baseUrl: service.baseUrl,
        pageSize: 2,
        onTransactionsLoad: (event: CustomEvent<{ total: number }>) => totals.push(event.detail.total),
      }),
    );
    const el = await onlyElement<TransactionsTableElement>(host, 'transactions-table');
    await waitUntil(() => totals.length > 0, 'transactionsLoad', { timeout: 8000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(totals).to.have.length(1);
    expect(totals[0]).to.be.at.least(3);
    expect(el.pageSize).to.equal(2);
    expect(fetches.actions.filter((call) => call.path.endsWith('/transactions'))).to.have.length(1);
  });

  it('an unset prop (Vue then writes 0 or null into the property) leaves the element its default', async function () {
    const service = realService(this);
    const strings = ref<Record<string, string> | undefined>({ label: 'Now {amount}' });
    const pollInterval = ref<number | undefined>(500);
    mount(() =>
      h(PayButton, { amount: '3', locale: 'en-US', strings: strings.value, pollInterval: pollInterval.value }),
    );
    const button = await onlyElement<PayButtonElement>(host, 'pay-button');
    expect(part(button, 'label').textContent).to.equal('Now $3.00');
    strings.value = undefined;
    pollInterval.value = undefined;
    await nextTick();
    await button.updateComplete;
    expect(part(button, 'label').textContent).to.equal('Pay $3.00');
    app!.unmount();

    const totals: number[] = [];
    const pageSize = ref<number | undefined>(2);
    mount(() =>
      h(TransactionsTable, {
        sessionToken: service.sessionToken,
        baseUrl: service.baseUrl,
        pageSize: pageSize.value,
        onTransactionsLoad: (event: CustomEvent<{ total: number }>) => totals.push(event.detail.total),
      }),
    );
    const table = await onlyElement<TransactionsTableElement>(host, 'transactions-table');
    await waitUntil(() => totals.length === 1, 'transactionsLoad', { timeout: 8000 });
    pageSize.value = undefined;
    await nextTick();
    await waitUntil(() => totals.length === 2, 'loaded again', { timeout: 8000 });
    await table.updateComplete;
    expect(table.shadowRoot!.querySelectorAll('tbody tr')).to.have.length(Math.min(totals[1]!, 20));
  });

  it('mounting, unmounting and mounting again leaves one element, and one request per click', async function () {
    const service = realService(this);
    const sent: string[] = [];
    const shown = ref(true);
    const Parent: Component = {
      setup: () => () =>
        shown.value
          ? h(RequestPaymentButton, {
              amount: '2.00',
              recipientPhone: uniquePhone(),
              publicKey: service.publicKey,
              baseUrl: service.baseUrl,
              onRequestSent: (event: CustomEvent<{ order_id: string }>) => sent.push(event.detail.order_id),
            })
          : null,
    };
    mount(() => h(Parent));
    await onlyElement(host, 'request-payment-button');
    shown.value = false;
    await nextTick();
    expect(host.querySelector('request-payment-button')).to.equal(null);
    shown.value = true;
    await nextTick();
    const el = await onlyElement<RequestPaymentButtonElement>(host, 'request-payment-button');
    expect(document.querySelectorAll('request-payment-button')).to.have.length(1);
    part(el, 'button').click();
    await waitUntil(() => sent.length > 0, 'requestSent', { timeout: 8000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).to.have.length(1);
    expect(fetches.actions.filter((call) => call.method === 'POST')).to.have.length(1);
  });

  it('the bare tags work in a Vue template with compilerOptions.isCustomElement', async function () {
    const service = realService(this);
    const totals: number[] = [];
    const templateApp = createAppWithCompiler({
      template: `<transactions-table :session-token="token" :base-url="baseUrl" page-size="2" @transactions-load="loaded"></transactions-table>`,
      data: () => ({ token: service.sessionToken, baseUrl: service.baseUrl }),
      methods: { loaded: (event: CustomEvent<{ total: number }>) => totals.push(event.detail.total) },
    });
    const warnings: string[] = [];
    templateApp.config.warnHandler = (message: string) => void warnings.push(message);
    templateApp.config.compilerOptions.isCustomElement = (tag: string) =>
      ['pay-button', 'request-payment-button', 'transactions-table'].includes(tag);
    templateApp.mount(host);
    try {
      const el = await onlyElement<TransactionsTableElement>(host, 'transactions-table');
      await waitUntil(() => totals.length > 0, 'transactions-load', { timeout: 8000 });
      expect(el.sessionToken).to.equal(service.sessionToken);
      expect(el.pageSize).to.equal(2);
      expect(warnings.filter((warning) => warning.includes('Failed to resolve component'))).to.deep.equal([]);
    } finally {
      templateApp.unmount();
    }
  });

  it('TransactionsTable exposes the element’s reload() on its ref', async function () {
    const service = realService(this);
    const totals: number[] = [];
    const table = ref<InstanceType<typeof TransactionsTable>>();
    mount(() =>
      h(TransactionsTable, {
        ref: table,
        sessionToken: service.sessionToken,
        baseUrl: service.baseUrl,
        onTransactionsLoad: (event: CustomEvent<{ total: number }>) => totals.push(event.detail.total),
      }),
    );
    await onlyElement(host, 'transactions-table');
    await waitUntil(() => totals.length === 1, 'first load', { timeout: 8000 });
    await table.value!.reload();
    expect(totals).to.have.length(2);
    expect(table.value!.$el).to.equal(host.querySelector('transactions-table'));
  });

  it('the bare tags with paykit/vue/compiler: a property-only member bound in kebab-case arrives as a property', async function () {
    const service = realService(this);
    const totals: number[] = [];
    let asked = 0;
    const templateApp = createAppWithCompiler({
      template: `<transactions-table :fetch-session-token="fetchToken" :strings="{ caption: 'Sales' }" :base-url="baseUrl" @transactions-load="loaded"></transactions-table>`,
      data: () => ({ baseUrl: service.baseUrl }),
      methods: {
        fetchToken: async () => {
          asked += 1;
          return service.sessionToken;
        },
        loaded: (event: CustomEvent<{ total: number }>) => totals.push(event.detail.total),
      },
    });
    // The in-browser compiler takes the same options as @vitejs/plugin-vue's template.compilerOptions.
    Object.assign(templateApp.config.compilerOptions, compilerOptions);
    templateApp.mount(host);
    try {
      const el = await onlyElement<TransactionsTableElement>(host, 'transactions-table');
      await waitUntil(() => totals.length > 0, 'transactions-load through fetchSessionToken', { timeout: 8000 });
      expect(typeof el.fetchSessionToken).to.equal('function');
      expect(asked).to.equal(1);
      expect(el.strings).to.deep.equal({ caption: 'Sales' });
      expect(el.getAttributeNames(), 'no attribute holding a function’s text').to.deep.equal(['base-url']);
    } finally {
      templateApp.unmount();
    }
  });
});
