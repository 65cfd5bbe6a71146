import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../support/service.ts';
import { PAGE_CSP } from './helpers.ts';

describe('API reference', () => {
  let service: TestService;
  let docs: string;
  before(async () => {
    service = await startService();
    const answer = await service.request('GET', '/docs');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-security-policy'], PAGE_CSP);
    assert.equal(answer.headers['cache-control'], 'no-store');
    docs = answer.text;
  });
  after(() => service.close());

  test('lists every operation of the OpenAPI document, under its tag, and links the document', async () => {
    const openapi = await service.request('GET', '/api/v1/openapi.json');
    assert.equal(openapi.status, 200);
    const paths = Object.entries(openapi.body.paths as Record<string, Record<string, { tags: string[]; summary: string }>>);
    assert.ok(paths.length >= 8);
    for (const [path, operations] of paths) {
      for (const [method, operation] of Object.entries(operations)) {
        const heading = `<span class="method">${method.toUpperCase()}</span> <code>/api/v1${path}</code>`;
        assert.ok(docs.includes(heading), `${method} ${path} is listed`);
        const section = docs.slice(docs.indexOf(heading));
        assert.ok(section.includes(`<p>${operation.summary.replaceAll("'", '&#39;')}</p>`), `${method} ${path} has its summary`);
        assert.ok(docs.lastIndexOf('<h2 id=', docs.indexOf(heading)) === docs.indexOf(`<h2 id="${operation.tags[0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-')}"`),
          `${method} ${path} is under ${operation.tags[0]}`);
      }
    }
    assert.ok(docs.includes('<span class="method">POST</span> <code>/api/v1/onboarding</code>'));
    assert.ok(docs.includes('<code>/api/v1/customers/add</code>'));
    assert.ok(docs.includes('<a href="/api/v1/openapi.json">'));
    assert.ok(!docs.includes('/onboard/') && !docs.includes('<code>/portal'), 'the hosted pages are not API operations');
  });

  test('shows parameters, body fields with nested objects indented, and the 200 answer', async () => {
    const section = (heading: string) => {
      const start = docs.indexOf(heading);
      assert.ok(start >= 0, heading);
      return docs.slice(start, docs.indexOf('</section>', start));
    };
    const onboarding = section('<code>/api/v1/onboarding</code>');
    assert.match(onboarding, /<h4>Request body<\/h4><ul class="fields"><li><code>BankingInfo<\/code> <span class="type">object<\/span>, optional<ul class="fields"><li><code>account_number<\/code> <span class="type">string<\/span>, optional — Account number; required by the review, which names every missing field at once<\/li>/);
    assert.match(onboarding, /<code>dba<\/code> <span class="type">string<\/span>, optional — Doing business as/);
    assert.match(onboarding, /<h4>Answer \(200\)<\/h4>.*<code>data<\/code> <span class="type">object<\/span>, <strong>required<\/strong><ul class="fields">.*<code>merchant_key<\/code>/s);

    const session = section('<code>/api/v1/auth/create-session</code>');
    assert.match(session, /<h4>Parameters<\/h4><ul class="fields"><li><code>is_publickey<\/code> <span class="type">boolean<\/span>, in query, optional/);

    const status = section('<code>/api/v1/auth/get-onboarding-status</code>');
    assert.match(status, /<code>merchantStatus<\/code> <span class="type">&quot;pending&quot; or &quot;completed&quot; or &quot;declined&quot;<\/span>/);

    const merchants = section('<code>/api/v1/merchant</code>');
    assert.match(merchants, /<code>data<\/code> <span class="type">array of object<\/span>, <strong>required<\/strong><ul class="fields">.*<code>public_data<\/code> <span class="type">object<\/span>, <strong>required<\/strong><ul class="fields"><li><code>public_key<\/code>/s);
  });
});
