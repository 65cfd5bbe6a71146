import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createSSRApp, h } from 'vue';
import { renderToString as vueRenderToString } from 'vue/server-renderer';

const BARE_PAY_BUTTON = /^<pay-button( amount="1\.00")?><\/pay-button>$/;
const root = fileURLToPath(new URL('../..', import.meta.url));

test('paykit/react imports and server-renders in Node (no DOM)', async () => {
  assert.equal(typeof (globalThis as { customElements?: unknown }).customElements, 'undefined', 'no DOM here');
  const { PayButton, RequestPaymentButton, TransactionsTable } = await import('../../wrappers/react/index.ts');
  // Properties are set in the browser once the element exists; a prop the server cannot tell from an attribute
  // (an element not yet finalized has no accessors) is written as one, which the element reads on upgrade too.
  assert.match(renderToString(createElement(PayButton, { amount: '1.00' })), BARE_PAY_BUTTON);
  const html = renderToString(createElement('div', null,
    createElement(PayButton, { amount: '1.00', orderId: 'o-1', className: 'buy', onPaySuccess: () => {} }),
    createElement(RequestPaymentButton, { amount: '2.00', recipientPhone: '+14155550123' }),
    createElement(TransactionsTable, { sessionToken: 'wst_x', pageSize: 5 })));
  assert.match(html, /^<div><pay-button class="buy"[^>]*><\/pay-button><request-payment-button[^>]*><\/request-payment-button><transactions-table[^>]*><\/transactions-table><\/div>$/);
  assert.doesNotMatch(html, /on-?pay|function|\[object/i, 'no handler or object is written into the markup');
});

test('paykit/vue imports and server-renders in Node (no DOM)', async () => {
  const { PayButton, RequestPaymentButton, TransactionsTable } = await import('../../wrappers/vue/index.ts');
  const html = await vueRenderToString(createSSRApp({
    render: () => h('div', [
      h(PayButton, { amount: '1.00', orderId: 'o-1', class: 'buy', onPaySuccess: () => {} }),
      h(RequestPaymentButton, { amount: '2.00', recipientPhone: '+14155550123' }),
      h(TransactionsTable, { sessionToken: 'wst_x', pageSize: 5 }),
    ]),
  }));
  assert.equal(html, '<div><pay-button class="buy"></pay-button><request-payment-button></request-payment-button><transactions-table></transactions-table></div>');
});

test('the built adapters (dist/react.js, dist/vue.js) import in Node too', async (t) => {
  // `npm run build`'s bundles, built afresh (under a second) where Node finds lit, react and vue: in node_modules.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const outDir = mkdtempSync(join(root, 'node_modules/.cache/paykit-dist-'));
  t.after(() => rmSync(outDir, { recursive: true, force: true }));
  const { build } = await import('vite');
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const react = await import(join(outDir, 'react.js'));
  const vue = await import(join(outDir, 'vue.js'));
  assert.equal(typeof react.PayButton, 'object', 'a forwardRef component');
  assert.equal(typeof react.configure, 'function');
  assert.match(renderToString(createElement(react.PayButton, { amount: '1.00' })), BARE_PAY_BUTTON);
  assert.equal(vue.PayButton.name, 'PayButton');
  assert.equal(await vueRenderToString(createSSRApp({ render: () => h(vue.TransactionsTable, { sessionToken: 'wst_x' }) })), '<transactions-table></transactions-table>');
});
