import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createSSRApp, h } from 'vue';
import { renderToString as vueRenderToString } from 'vue/server-renderer';

const BARE_PAY_BUTTON = /^<pay-button( amount="1\.00")?><\/pay-button>$/;
const root = fileURLToPath(new URL('../../..', import.meta.url));

test('paykit/react imports and server-renders in Node (no DOM)', async () => {
  assert.equal(typeof (globalThis as { customElements?: unknown }).customElements, 'undefined', 'no DOM here');
  const { PayButton, RequestPaymentButton, TransactionsTable } = await import('../../../wrappers/react/index.ts');
  // Properties are set in the browser once the element exists; a prop the server cannot tell from an attribute
  // (an element not yet finalized has no accessors) is written as one, which the element reads on upgrade too.
  assert.match(renderToString(createElement(PayButton, { amount: '1.00' })), BARE_PAY_BUTTON);
  const html = renderToString(
    createElement(
      'div',
      null,
      createElement(PayButton, { amount: '1.00', orderId: 'o-1', className: 'buy', onPaySuccess: () => {} }),
      createElement(RequestPaymentButton, { amount: '2.00', recipientPhone: '+14155550123' }),
      createElement(TransactionsTable, { sessionToken: 'wst_x', pageSize: 5 }),
    ),
  );
  assert.match(
    html,
    /^<div><pay-button class="buy"[^>]*><\/pay-button><request-payment-button[^>]*><\/request-payment-button><transactions-table[^>]*><\/transactions-table><\/div>$/,
  );
  assert.doesNotMatch(html, /on-?pay|function|\[object/i, 'no handler or object is written into the markup');
});

test('paykit/react server-renders on React 18 too', async (t) => {
  // React 18 is installed as react18 and react-dom18; a bundle with those aliases gives the adapter that React.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const outDir = mkdtempSync(join(root, 'node_modules/.cache/paykit-react18-'));
  t.after(() => rmSync(outDir, { recursive: true, force: true }));
  const { build } = await import('esbuild');
  await build({
    stdin: {
      contents: `export { createElement, version } from 'react';
        export { renderToString } from 'react-dom/server';
        export { PayButton, TransactionsTable } from './wrappers/react/index.ts';`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: join(outDir, 'react18.cjs'),
    logLevel: 'warning',
    alias: { react: 'react18', 'react-dom': 'react-dom18' },
  });
  const react18 = createRequire(import.meta.url)(join(outDir, 'react18.cjs'));
  assert.match(react18.version, /^18\./);
  assert.match(react18.renderToString(react18.createElement(react18.PayButton, { amount: '1.00' })), BARE_PAY_BUTTON);
  assert.equal(
    react18.renderToString(
      react18.createElement(react18.TransactionsTable, {
        sessionToken: 'wst_x',
        pageSize: 5,
        onTransactionsLoad: () => {},
      }),
    ),
    react18.renderToString(react18.createElement(react18.TransactionsTable, { sessionToken: 'wst_x', pageSize: 5 })),
    'handlers are not written into the markup',
  );
});

test('paykit/vue imports and server-renders in Node (no DOM)', async () => {
  const { PayButton, RequestPaymentButton, TransactionsTable } = await import('../../../wrappers/vue/index.ts');
  const html = await vueRenderToString(
    createSSRApp({
      render: () =>
        h('div', [
          h(PayButton, { amount: '1.00', orderId: 'o-1', class: 'buy', onPaySuccess: () => {} }),
          h(RequestPaymentButton, { amount: '2.00', recipientPhone: '+14155550123' }),
          h(TransactionsTable, { sessionToken: 'wst_x', pageSize: 5 }),
        ]),
    }),
  );
  assert.equal(
    html,
    '<div><pay-button class="buy"></pay-button><request-payment-button></request-payment-button><transactions-table></transactions-table></div>',
  );
});

test('the built adapters (dist/react.js, dist/vue.js) import in Node too', async (t) => {
  // `npm run build`'s bundles, built afresh (under a second) where Node finds lit, react and vue: in node_modules.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const outDir = mkdtempSync(join(root, 'node_modules/.cache/paykit-dist-'));
  t.after(() => rmSync(outDir, { recursive: true, force: true }));
  const { build } = await import('vite');
  await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  const react = await import(join(outDir, 'react.js'));
  const vue = await import(join(outDir, 'vue.js'));
  assert.equal(typeof react.PayButton, 'object', 'a forwardRef component');
  assert.equal(typeof react.configure, 'function');
  assert.match(renderToString(createElement(react.PayButton, { amount: '1.00' })), BARE_PAY_BUTTON);
  assert.equal(vue.PayButton.name, 'PayButton');
  assert.equal(
    await vueRenderToString(createSSRApp({ render: () => h(vue.TransactionsTable, { sessionToken: 'wst_x' }) })),
    '<transactions-table></transactions-table>',
  );

  // dist/ssr.js (paykit/ssr) renders declarative shadow DOM with the very templates the script tag's build has,
  // which test/ssr/hydration.test.ts hydrates in Chromium: the same digests of every template.
  const ssr = await import(join(outDir, 'ssr.js'));
  const { builtServerRenderer } = await import('../../support/ssr-build.ts');
  const scriptTagLike = await builtServerRenderer();
  const digests = async (renderer: typeof scriptTagLike) =>
    [
      ...(
        await renderer.renderToString(
          renderer.html`<pay-button amount="1.00"></pay-button><request-payment-button></request-payment-button><transactions-table></transactions-table>`,
        )
      ).matchAll(/<!--lit-part ([\w+/=]+)-->/g),
    ].map((match) => match[1]);
  assert.match(
    await ssr.renderToString(ssr.html`<pay-button amount="1.00"></pay-button>`),
    /^<!--lit-part [\w+/=]+--><pay-button\s+amount="1.00"><template shadowroot="open" shadowrootmode="open">/,
  );
  assert.deepEqual(await digests(ssr), await digests(scriptTagLike));
});
