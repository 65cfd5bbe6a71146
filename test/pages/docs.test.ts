import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { startService, type TestService } from '../support/service.ts';
import { launchChromium } from '../support/chromium.ts';
import { approvedMerchant } from '../support/payments.ts';
import { TAGS } from '../../server/openapi/document.ts';
import { PAGE_CSP } from './helpers.ts';

const REFERENCE_CSP = `${PAGE_CSP}; script-src 'self'; connect-src 'self'; font-src 'self' data:`;

describe('API reference', () => {
  let service: TestService;
  let rendererPath: string;
  before(async () => {
    service = await startService();
    const page = await service.request('GET', '/docs/interactive');
    rendererPath = /<script src="(\/docs\/scalar-[\d.]+\.js)" defer>/.exec(page.text)![1]!;
  });
  after(() => service.close());

  test('/docs is the whole reference in HTML without script: every tag, operation, parameter and example, one link from the interactive one', async () => {
    const answer = await service.request('GET', '/docs');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-security-policy'], PAGE_CSP, 'no script at all');
    assert.doesNotMatch(answer.text, /<script/);
    assert.match(answer.text, /<a href="\/docs\/interactive">/);
    assert.match(answer.text, /<a href="\/api\/v1\/openapi.json">/);
    const document = (await service.request('GET', '/api/v1/openapi.json')).body;
    for (const tag of TAGS)
      assert.ok(answer.text.includes(`>${tag.name}</a>`) && answer.text.includes(`>${tag.name}</h2>`), tag.name);
    for (const [path, item] of Object.entries<
      Record<string, { operationId: string; summary: string; parameters?: { name: string }[] }>
    >(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const section = answer.text.slice(answer.text.indexOf(`<section class="op" id="${operation.operationId}">`));
        assert.ok(section.length < answer.text.length, `${operation.operationId} has its section`);
        const own = section.slice(0, section.indexOf('</section>'));
        assert.ok(
          own.includes(`<code>${path}</code>`) && own.includes(`>${method.toUpperCase()}<`),
          `${method} ${path}`,
        );
        for (const parameter of operation.parameters ?? [])
          assert.ok(own.includes(`<code>${parameter.name}</code>`), `${operation.operationId} ${parameter.name}`);
        assert.ok(own.includes('<summary>Example</summary>'), `${operation.operationId} shows its example`);
        assert.ok(own.includes('<li><code>200</code>'), `${operation.operationId} shows its answer`);
      }
    }
    const refusals = answer.text.slice(
      answer.text.indexOf('<h2 id="refusals">'),
      answer.text.indexOf('<h2 id="tag-1">'),
    );
    for (const status of ['400', '401', '404', '409', '429', '500', '503'])
      assert.ok(refusals.includes(`<li><code>${status}</code>`), `refusal ${status} listed`);
    assert.match(
      answer.text,
      /<code>limit<\/code> <span class="type">\(integer, query, optional, default 20, from 1, to 100\)/,
    );
    // Each example as curl, with the README's $PAYKIT and $AUTH: Basic for the partner, the public key alone for a widget.
    const unescaped = answer.text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');
    assert.match(
      unescaped,
      /curl -u \$AUTH "\$PAYKIT\/customers\/add" \\\n  -H 'content-type: application\/json' -d '\{"merchant_key":"mk_/,
    );
    assert.match(unescaped, /curl -u \$AUTH "\$PAYKIT\/customers\?merchant_key=mk_\w+&page=1&perPage=20"/);
    assert.match(unescaped, /curl "\$PAYKIT\/widgets\/pk_\w+\/settings"/);
    assert.match(
      unescaped,
      /curl -H "authorization: Bearer \$TOKEN" -X POST "\$PAYKIT\/widgets\/transactions\/txn_[\w-]+\/void"/,
    );
  });

  test('/docs and the OpenAPI document are sent compressed, with ETags a browser revalidates', async () => {
    for (const path of ['/docs', '/api/v1/openapi.json']) {
      const plain = await service.request('GET', path);
      const br = await service.request('GET', path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      assert.equal(br.headers['content-encoding'], 'br', path);
      assert.equal(br.headers['vary'], 'Accept-Encoding', path);
      assert.equal(br.headers['cache-control'], 'no-cache', path);
      assert.ok(brotliDecompressSync(br.bytes).equals(plain.bytes), path);
      assert.ok(br.bytes.length < plain.bytes.length / 5, `${path}: ${br.bytes.length} of ${plain.bytes.length} bytes`);
      const again = await service.request('GET', path, {
        headers: { 'accept-encoding': 'br', 'if-none-match': br.headers['etag'] as string },
      });
      assert.equal(again.status, 304, path);
    }
  });

  test('/docs/interactive is a small page that loads the document and the deferred renderer from this origin, and nothing caches it', async () => {
    const answer = await service.request('GET', '/docs/interactive', { headers: { host: 'api.paykit.example' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-security-policy'], REFERENCE_CSP);
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.ok(answer.bytes.length < 2048, `${answer.bytes.length} bytes`);
    assert.match(answer.text, /data-url="\/api\/v1\/openapi.json"/);
    const configuration = JSON.parse(/data-configuration="([^"]+)"/.exec(answer.text)![1]!.replaceAll('&quot;', '"'));
    assert.deepEqual(
      configuration.servers,
      [{ url: 'http://api.paykit.example/api/v1', description: 'sandbox' }],
      '"try it" calls the host the reader used',
    );
    assert.equal(configuration.telemetry, false);
    assert.equal(configuration.withDefaultFonts, false);
    assert.equal(configuration.proxyUrl, '');
    assert.match(
      answer.text,
      /<noscript>.*href="\/api\/v1\/openapi.json"/s,
      'without JavaScript the document is one link away',
    );
  });

  test('the renderer is precompressed, named by its version, kept for a year and revalidated by ETag', async () => {
    const plain = await service.request('GET', rendererPath);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['vary'], 'Accept-Encoding');
    assert.match(plain.headers['content-type'] as string, /^text\/javascript/);
    const br = await service.request('GET', rendererPath, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(brotliDecompressSync(br.bytes).equals(plain.bytes));
    assert.ok(br.bytes.length < plain.bytes.length / 3, `${br.bytes.length} of ${plain.bytes.length} bytes`);
    const gzip = await service.request('GET', rendererPath, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gzip.bytes).equals(plain.bytes));
    const again = await service.request('GET', rendererPath, {
      headers: { 'accept-encoding': 'br', 'if-none-match': br.headers['etag'] as string },
    });
    assert.equal(again.status, 304);
    assert.equal(again.bytes.length, 0);
    assert.equal(
      (await service.request('GET', '/docs/scalar-0.0.1.js')).status,
      404,
      'only the installed version is served',
    );
  });

  describe('in Chromium', () => {
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];
    before(async () => {
      browser = await launchChromium();
      page = await browser.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(service.baseUrl) && !url.startsWith('data:'))
          problems.push(`request to another origin: ${url}`);
      });
      await page.goto(`${service.baseUrl}/docs/interactive`);
      await page.getByText('List your merchants, newest first').first().waitFor({ timeout: 30_000 });
    });
    after(() => browser.close());

    test('renders every tag of the document, without errors and without calling any other origin', async () => {
      for (const tag of TAGS) await page.getByText(tag.name, { exact: true }).first().waitFor({ timeout: 5_000 });
      assert.deepEqual(problems, []);
    });

    test('search finds an operation by its summary', async () => {
      await page.keyboard.press('Control+k');
      await page.keyboard.type('refund');
      await page
        .getByRole('option', { name: /Refund/ })
        .first()
        .waitFor({ timeout: 5_000 });
      await page.keyboard.press('Escape');
    });

    test('"try it" sends a real request with the credentials pasted in, and shows the answer', async () => {
      const { merchantId } = await approvedMerchant(service);
      await page.getByRole('combobox', { name: 'Username' }).first().click();
      await page.keyboard.type(service.client.clientId);
      await page.getByLabel('Password', { exact: true }).first().fill(service.client.secretKey);
      await page.getByText('List your merchants, newest first').first().click();
      await page.getByRole('button', { name: /Test Request.*get \/merchant\)/ }).click();
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/merchant');
      await page.getByRole('button', { name: /^Send/ }).first().click();
      const response = await answered;
      assert.equal(response.status(), 200);
      assert.equal(
        response.request().headers()['authorization'],
        `Basic ${Buffer.from(`${service.client.clientId}:${service.client.secretKey}`).toString('base64')}`,
      );
      assert.ok(JSON.stringify(await response.json()).includes(merchantId));
      assert.deepEqual(problems, []);
    });
  });
});
