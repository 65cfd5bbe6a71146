import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../support/service.ts';
import { send } from '../support/http.ts';
import { PAGE_CSP } from './helpers.ts';

/** The credentials as the page shows them. */
function shownCredentials(page: string) {
  const value = (term: string) => {
    const match = new RegExp(`<dt>${term}</dt><dd><code>([^<]+)</code>`).exec(page);
    assert.ok(match, `the page shows the ${term}`);
    return match[1]!;
  };
  return { id: value('Client id'), secret: value('Secret key'), publicKey: value('Client public key') };
}

describe('sandbox test portal and home page', () => {
  let service: TestService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  test('the home page links the reference, the OpenAPI document and the portal', async () => {
    const home = await service.request('GET', '/');
    assert.equal(home.status, 200);
    assert.equal(home.headers['content-security-policy'], PAGE_CSP);
    for (const href of ['/docs', '/api/v1/openapi.json', '/portal'])
      assert.ok(home.text.includes(`<a href="${href}">`), `links ${href}`);
  });

  test('GET /portal explains sandbox credentials and offers to create them', async () => {
    const portal = await service.request('GET', '/portal');
    assert.equal(portal.status, 200);
    assert.equal(portal.headers['cache-control'], 'no-store');
    assert.match(portal.text, /<h1>Sandbox test portal<\/h1>/);
    assert.match(portal.text, /HTTP Basic authentication/);
    assert.match(portal.text, /<form method="post" action="\/portal\/credentials">/);
    assert.match(portal.text, /<label for="name">Name for these credentials/);
    assert.match(portal.text, /<button type="submit">Create sandbox credentials<\/button>/);
    assert.ok(
      portal.text.includes('<a href="/portal/dashboard">Open the sandbox dashboard</a>'),
      'and leads to the dashboard',
    );
  });

  test('POST /portal/credentials creates credentials that work, shown once with a curl example', async () => {
    const answer = await service.request('POST', '/portal/credentials', { form: { name: '  Staging shop ' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(answer.headers['referrer-policy'], 'no-referrer');
    const { id, secret, publicKey } = shownCredentials(answer.text);
    assert.match(id, /^cli_/);
    assert.match(secret, /^sk_/);
    assert.match(publicKey, /^pk_client_/);
    assert.match(answer.text, /shown only this once/);
    assert.ok(
      answer.text.includes(`<pre><code>curl -u ${id}:${secret} ${service.baseUrl}/api/v1/merchant</code></pre>`),
    );

    const merchants = await send(service.baseUrl, 'GET', '/api/v1/merchant', { auth: { id, secret } });
    assert.equal(merchants.status, 200, merchants.text);
    assert.deepEqual(merchants.body.data, []);
    assert.equal(
      (await send(service.baseUrl, 'GET', '/api/v1/merchant', { auth: { id, secret: `${secret}x` } })).status,
      401,
    );
    const stored = await service.store.clients.findById(id);
    assert.equal(stored?.name, 'Staging shop');
    assert.equal(stored?.public_key, publicKey);
  });

  test('the name is optional and at most 100 characters', async () => {
    const unnamed = await service.request('POST', '/portal/credentials', { form: {} });
    assert.equal(unnamed.status, 200);
    assert.equal((await service.store.clients.findById(shownCredentials(unnamed.text).id))?.name, 'Sandbox client');

    const long = await service.request('POST', '/portal/credentials', { form: { name: 'x'.repeat(101) } });
    assert.equal(long.status, 400);
    assert.doesNotMatch(long.text, /<dt>Secret key<\/dt>/);
    assert.match(long.text, /<p class="error" id="name-error">[^<]*at most 100/);
    assert.match(long.text, /<input[^>]*id="name"[^>]*aria-describedby="name-error name-hint"[^>]*aria-invalid="true"/);
  });
});

describe('production', () => {
  let service: TestService;
  before(async () => {
    service = await startService({ environment: 'production' });
  });
  after(() => service.close());

  test('has no test portal: /portal answers a plain 404 page', async () => {
    for (const answer of [
      await service.request('GET', '/portal'),
      await service.request('POST', '/portal/credentials', { form: { name: 'x' } }),
    ]) {
      assert.equal(answer.status, 404);
      assert.match(String(answer.headers['content-type']), /^text\/html/);
      assert.match(answer.text, /<h1>Page not found<\/h1>/);
      assert.doesNotMatch(answer.text, /Secret key/);
    }
  });

  test('the home page does not link the portal', async () => {
    const home = await service.request('GET', '/');
    assert.equal(home.status, 200);
    assert.match(home.text, /Paykit production service/);
    assert.ok(home.text.includes('<a href="/docs">'));
    assert.ok(!home.text.includes('/portal'));
  });
});
