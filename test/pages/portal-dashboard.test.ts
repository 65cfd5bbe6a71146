/**
 * The sandbox dashboard over HTTP: behind the client's own id and secret key, showing that client's merchants,
 * events with their deliveries and sandbox messages, and no other client's; resending only its own events.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../support/service.ts';
import { validApplication } from '../support/fixtures.ts';
import { nextOrderId } from '../support/payments.ts';
import type { NewClientCredentials } from '../../server/services/clients.ts';

interface Partner {
  auth: { id: string; secret: string };
  merchantKey: string;
  eventId: string;
}

/** A client with a merchant of its own (named `business`), a payment request that sent a text and an e-mail. */
async function partnerWith(
  service: TestService,
  credentials: NewClientCredentials,
  business: string,
  phone: string,
): Promise<Partner> {
  const auth = { id: credentials.clientId, secret: credentials.secretKey };
  const onboarded = await service.api('POST', '/onboarding', {
    json: validApplication({ BusinessInfo: { business_name: business } }),
    auth,
  });
  assert.equal(onboarded.status, 200, onboarded.text);
  const { merchant_key: merchantKey, merchant_id: merchantId } = onboarded.body.data;
  assert.equal(
    (await service.api('POST', '/approve-merchant', { json: { merchant_id: merchantId }, auth })).status,
    200,
  );
  const asked = await service.api('POST', '/requests', {
    json: {
      merchant_key: merchantKey,
      amount: '12.00',
      order_id: nextOrderId(),
      phone_number: phone,
      email: `${business.split(' ')[0]!.toLowerCase()}@payer.example`,
      description: `${business} order`,
    },
    auth,
  });
  assert.equal(asked.status, 200, asked.text);
  const events = await service.store.events.listForClient(credentials.clientId);
  return { auth, merchantKey, eventId: events[0]!.id };
}

const basic = ({ id, secret }: { id: string; secret: string }) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('sandbox dashboard', () => {
  let service: TestService;
  let alpha: Partner;
  let beta: Partner;
  before(async () => {
    service = await startService();
    alpha = await partnerWith(service, await service.newClient('Alpha platform'), 'Alpha Bakery', '(415) 555-0101');
    beta = await partnerWith(service, await service.newClient('Beta platform'), 'Beta Books', '(415) 555-0202');
  });
  after(() => service.close());

  const dashboard = (auth: { id: string; secret: string } | null, headers: Record<string, string> = {}) =>
    service.request('GET', '/portal/dashboard', {
      headers: { ...headers, ...(auth ? { authorization: basic(auth) } : {}) },
    });

  test('asks for the client id and secret key, and refuses wrong ones', async () => {
    for (const answer of [
      await dashboard(null),
      await dashboard({ id: alpha.auth.id, secret: `${alpha.auth.secret}x` }),
      await dashboard({ id: alpha.auth.id, secret: beta.auth.secret }),
      await dashboard(null, { authorization: 'Bearer nonsense' }),
    ]) {
      assert.equal(answer.status, 401);
      assert.equal(answer.headers['www-authenticate'], 'Basic realm="Paykit sandbox dashboard", charset="UTF-8"');
      assert.match(String(answer.headers['content-type']), /^text\/html/);
      assert.match(answer.text, /<h1>Sign in to the sandbox dashboard<\/h1>/);
      assert.doesNotMatch(answer.text, /Alpha Bakery|Beta Books/);
    }
  });

  test('each client sees only its own merchants, events with their deliveries, and messages', async () => {
    for (const [own, other] of [
      [alpha, beta],
      [beta, alpha],
    ] as const) {
      const answer = await dashboard(own.auth);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.headers['cache-control'], 'no-store');
      const page = answer.text;
      const [ownName, otherName] = own === alpha ? ['Alpha', 'Beta'] : ['Beta', 'Alpha'];
      assert.match(page, new RegExp(`<td>${ownName} \\w+</td><td>Approved</td>`), 'its merchant, approved');
      assert.match(page, new RegExp(`${ownName} \\w+ order`), 'its text and e-mail');
      assert.ok(page.includes(`<code>${own.eventId}</code>`), 'its newest event');
      assert.match(page, /<code class="nowrap">merchant\.onboarding<\/code>/);
      assert.ok(page.includes(`action="/portal/dashboard/events/${own.eventId}/resend"`));
      assert.ok(!page.includes(otherName!), `nothing of ${otherName}'s`);
      assert.ok(!page.includes(other.eventId) && !page.includes(other.auth.id), `no id of ${otherName}'s`);
      assert.ok(!page.includes(own.auth.secret), 'the secret key is never shown again');
      assert.ok(page.includes(`data-copy="${own.auth.id}"`), 'the client id has a copy button');
      const nonce = /script-src 'nonce-([^']+)'/.exec(String(answer.headers['content-security-policy']))?.[1];
      assert.ok(nonce && page.includes(`<script nonce="${nonce}">`), 'the copy script runs under the page nonce');
    }
  });

  test('resends its own events only, and only from its own page', async () => {
    const before = await service.store.events.findForClient(beta.auth.id, beta.eventId);
    const stolen = await service.request('POST', `/portal/dashboard/events/${beta.eventId}/resend`, {
      headers: { authorization: basic(alpha.auth) },
    });
    assert.equal(stolen.status, 404);
    assert.match(stolen.text, /No event [\w-]+ of yours\./);
    assert.deepEqual(
      await service.store.events.findForClient(beta.auth.id, beta.eventId),
      before,
      "another client's event is untouched",
    );

    const crossSite = await service.request('POST', `/portal/dashboard/events/${alpha.eventId}/resend`, {
      headers: { authorization: basic(alpha.auth), 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(crossSite.status, 403);

    const resent = await service.request('POST', `/portal/dashboard/events/${alpha.eventId}/resend`, {
      headers: { authorization: basic(alpha.auth), 'sec-fetch-site': 'same-origin' },
    });
    assert.equal(resent.status, 303);
    assert.equal(resent.headers.location, `/portal/dashboard?resent=${alpha.eventId}`);
    const event = await service.store.events.findForClient(alpha.auth.id, alpha.eventId);
    assert.equal(event?.delivery_status, 'pending');
    assert.equal(event?.attempts, 0);
    const shown = await service.request('GET', resent.headers.location as string, {
      headers: { authorization: basic(alpha.auth) },
    });
    assert.ok(shown.text.includes(`<p class="notice" role="status">Event ${alpha.eventId} will be sent again.</p>`));

    assert.equal(
      (await service.request('POST', '/portal/dashboard/events/evt_x/resend')).status,
      401,
      'no credentials, no resend',
    );
  });

  test('the credentials page has copy buttons and leads to the dashboard', async () => {
    const made = await service.request('POST', '/portal/credentials', { form: { name: 'Copy test' } });
    assert.equal(made.status, 200);
    for (const what of ['client id', 'secret key', 'client public key'])
      assert.match(
        made.text,
        new RegExp(
          `<button type="button" class="copy secondary" data-copy="[^"]+" data-copied="${what} copied\\." hidden>Copy<span class="visually-hidden"> ${what}</span></button>`,
        ),
      );
    assert.ok(made.text.includes('<a href="/portal/dashboard">Open the sandbox dashboard</a>'));
  });
});

describe('sandbox dashboard in production', () => {
  let service: TestService;
  before(async () => {
    service = await startService({ environment: 'production' });
  });
  after(() => service.close());

  test('there is none', async () => {
    const answer = await service.request('GET', '/portal/dashboard', {
      headers: { authorization: basic({ id: service.client.clientId, secret: service.client.secretKey }) },
    });
    assert.equal(answer.status, 404);
    assert.match(answer.text, /<h1>Page not found<\/h1>/);
  });
});
