import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MerchantAccount } from '../../server/store/merchants.ts';
import { startService, type TestService } from '../support/service.ts';
import { createWidgetPayLink } from '../../server/services/widgets.ts';
import type { Answer } from '../support/http.ts';
import { PAGE_CSP, tagWithId } from './helpers.ts';
import {
  APPROVE,
  CHALLENGE,
  DECLINE,
  NO_FUNDS,
  approvedMerchant,
  cardForm,
  newPayLink,
  scriptNonce,
} from './pay-helpers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const SHOP = 'https://shop.example';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const transactionIdOf = (page: string) => /<dt>Transaction<\/dt><dd><code>([^<]+)<\/code>/.exec(page)?.[1];
const titleOf = (page: string) => /<h1>([^<]*)<\/h1>/.exec(page)?.[1];

function assertPageHeaders(answer: Answer, csp = PAGE_CSP) {
  assert.match(String(answer.headers['content-type']), /^text\/html; charset=utf-8/);
  assert.equal(answer.headers['content-security-policy'], csp);
  assert.equal(answer.headers['referrer-policy'], 'no-referrer');
  assert.equal(answer.headers['cache-control'], 'no-store');
}

/** The nonce'd opener script of a page, its message and its target origin; undefined when there is none. */
function openerScript(answer: Answer) {
  const match =
    /<script nonce="([^"]+)">\(window\.opener \|\| window\.parent\)\.postMessage\((\{.*\}), ("[^"]*")\);<\/script>/.exec(
      answer.text,
    );
  if (!match) return undefined;
  return { nonce: match[1]!, message: JSON.parse(match[2]!), target: JSON.parse(match[3]!) as string };
}

describe('hosted pay page', () => {
  let service: TestService;
  let merchant: MerchantAccount;
  /** Every page answered in this suite, to check that none repeats a card number. */
  const pages: string[] = [];
  const submittedNumbers = new Set<string>();

  const get = async (path: string) => {
    const answer = await service.request('GET', path);
    pages.push(answer.text);
    return answer;
  };
  const post = async (path: string, form: Record<string, string>) => {
    if (form.card_number) submittedNumbers.add(form.card_number.replace(/\D/g, ''));
    const answer = await service.request('POST', path, { form });
    pages.push(answer.text);
    return answer;
  };

  before(async () => {
    service = await startService();
    merchant = await approvedMerchant(service, 'Blue <Bottle> Cafe');
  });
  after(() => service.close());

  test('shows the merchant, the order and the amount breakdown, and both forms with their autocomplete', async () => {
    const link = await newPayLink(service, merchant, {
      amount: '10.00',
      discount: '1.00',
      surcharge: '0.50',
      tax: '0.80',
      description: 'Two flat whites',
      invoice_number: 'INV42',
    });
    const page = await get(link.path);
    assert.equal(page.status, 200);
    const html = page.text;
    // The card form's one script (its inline checks) runs by the nonce the page's CSP names, and by nothing else.
    const nonce = scriptNonce(html);
    assert.ok(nonce, 'the card form has its script');
    assertPageHeaders(page, `${PAGE_CSP}; script-src 'nonce-${nonce}'`);
    assert.equal(html.match(/<script/g)?.length, 1, 'one script');
    assert.doesNotMatch(html, /\son\w+="/, 'no inline event handlers (the CSP would refuse them)');
    assert.equal(titleOf(html), 'Pay Blue &lt;Bottle&gt; Cafe');
    assert.match(html, /<dt>Merchant<\/dt><dd>Blue &lt;Bottle&gt; Cafe<\/dd>/);
    assert.match(html, /<dt>Description<\/dt><dd>Two flat whites<\/dd>/);
    assert.ok(html.includes(`<dt>Order</dt><dd>${link.request.order_id}</dd>`));
    assert.match(html, /<dt>Invoice<\/dt><dd>INV42<\/dd>/);
    for (const [label, amount] of [
      ['Amount', '$10.00'],
      ['Discount', '-$1.00'],
      ['Surcharge', '$0.50'],
      ['Tax', '$0.80'],
    ]) {
      assert.ok(html.includes(`<th scope="row">${label}</th><td>${amount}</td>`), `${label} ${amount}`);
    }
    assert.ok(html.includes('<tr class="total"><th scope="row">Total</th><td>$10.30</td></tr>'));
    assert.doesNotMatch(html, /fee<\/th>/, 'no fee is shown when the merchant keeps it');

    // Paying first: the total under the title, the details in a summary that opens, card or bank as one choice.
    assert.match(html, /<h1>Pay Blue &lt;Bottle&gt; Cafe<\/h1>\n<p class="pay-total">Total \$10\.30<\/p>/);
    assert.ok(
      html.indexOf('<details class="pay-details">\n<summary>Order details</summary>') <
        html.indexOf('<dt>Merchant</dt>'),
    );
    assert.ok(
      html.indexOf('<dt>Merchant</dt>') < html.indexOf('id="card-form"'),
      'the details come before the forms, closed',
    );
    assert.match(html, /<legend>Pay with<\/legend>/);
    assert.match(html, /<input type="radio" name="pay_method" id="choose-card" value="card" checked>Card<\/label>/);
    assert.match(html, /<input type="radio" name="pay_method" id="choose-ach" value="ach">Bank account<\/label>/);
    assert.match(html, /<legend class="visually-hidden">Pay by card<\/legend>/);
    assert.match(html, /<legend class="visually-hidden">Pay from a bank account \(ACH\)<\/legend>/);
    assert.ok(html.indexOf('id="card-number"') < html.indexOf('id="card-name"'), 'the card number comes first');
    assert.ok(
      html.indexOf('id="ach-form"') <
        html.indexOf('<details class="pay-note" id="test-details">\n<summary>Sandbox test details</summary>'),
      'the sandbox help comes after the forms, closed',
    );
    assert.match(tagWithId(html, 'card-number'), /autocomplete="cc-number"[^>]*inputmode="numeric"/);
    assert.match(tagWithId(html, 'card-number'), /name="card_number"[^>]*required/);
    // One expiry field, MM / YY, which autofill fills whole (cc-exp).
    assert.match(html, /<label for="card-exp">Expiry date \(MM \/ YY\)<\/label>/);
    assert.match(
      tagWithId(html, 'card-exp'),
      /name="exp"[^>]*autocomplete="cc-exp"[^>]*inputmode="numeric"[^>]*placeholder="MM \/ YY"/,
    );
    assert.match(tagWithId(html, 'card-cvc'), /autocomplete="cc-csc"/);
    assert.match(tagWithId(html, 'card-name'), /autocomplete="cc-name"/);
    assert.doesNotMatch(tagWithId(html, 'card-name'), /required/, 'the name on the card is optional');
    assert.match(tagWithId(html, 'ach-routing'), /name="routing_number"/);
    assert.match(tagWithId(html, 'ach-account'), /name="account_number"/);
    for (const id of ['card-name', 'card-number', 'card-exp', 'card-cvc', 'ach-name', 'ach-routing', 'ach-account']) {
      assert.ok(html.includes(`<label for="${id}">`), `${id} has a label`);
    }
    assert.match(html, /<button type="submit">Pay \$10\.30 by card<\/button>/);
    assert.match(html, /<button type="submit">Pay \$10\.30 from bank account<\/button>/);
    assert.match(html, /4242 4242 4242 4242<\/code> approves/, 'the sandbox lists its test cards');
    assert.match(html, /<code>110000000<\/code>/);
  });

  test('with pass_fee each method shows its own fee and total', async () => {
    const link = await newPayLink(service, merchant, { amount: '100.00', pass_fee: true });
    const html = (await get(link.path)).text;
    assert.ok(html.includes('<th scope="row">Card processing fee</th><td>$3.20</td>'));
    assert.ok(html.includes('<tr class="total"><th scope="row">Total by card</th><td>$103.20</td></tr>'));
    assert.ok(html.includes('<th scope="row">Bank (ACH) processing fee</th><td>$0.80</td>'));
    assert.ok(html.includes('<tr class="total"><th scope="row">Total by bank account (ACH)</th><td>$100.80</td></tr>'));
    assert.match(html, /Pay \$103\.20 by card/);
    assert.match(html, /Pay \$100\.80 from bank account/);
  });

  test('shows only the forms of the allowed methods, and a preauthorization is held, not charged', async () => {
    const cardOnly = (await get((await newPayLink(service, merchant, { allow_ach: false })).path)).text;
    assert.match(cardOnly, /id="card-form"/);
    assert.doesNotMatch(cardOnly, /id="ach-form"/);
    assert.doesNotMatch(cardOnly, /110000000/, 'no ACH test number without the ACH form');

    const achOnly = (await get((await newPayLink(service, merchant, { allow_card: false })).path)).text;
    assert.match(achOnly, /id="ach-form"/);
    assert.doesNotMatch(achOnly, /id="card-form"/);

    const preauth = (await get((await newPayLink(service, merchant, { preauth: true })).path)).text;
    assert.match(preauth, /authorized \(held\), not charged/);
    assert.match(preauth, /<button type="submit">Authorize \$10\.00<\/button>/);
    assert.doesNotMatch(preauth, /id="ach-form"/);
  });

  test('a card approved through the form shows the success page, completes the transaction and closes the link', async () => {
    const link = await newPayLink(service, merchant, { amount: '25.00' });
    const paid = await post(link.path, cardForm(APPROVE));
    assert.equal(paid.status, 200, paid.text);
    assertPageHeaders(paid);
    assert.equal(titleOf(paid.text), 'Payment successful');
    assert.match(paid.text, /you paid \$25\.00 to Blue &lt;Bottle&gt; Cafe/);
    assert.ok(paid.text.includes(`<dt>Order</dt><dd>${link.request.order_id}</dd>`));
    const transactionId = transactionIdOf(paid.text);
    assert.equal(transactionId, link.request.sales_id);
    const stored = await service.store.transactions.find(merchant.id, transactionId!);
    assert.equal(stored?.status, 'completed');
    assert.equal(stored?.amount, 2500);
    assert.equal(stored?.last_four, '4242');

    const again = await get(link.path);
    assert.equal(again.status, 410);
    assert.equal(titleOf(again.text), 'Already paid');
    assert.match(again.text, /This pay link has already been paid\./);
    const twice = await post(link.path, cardForm(APPROVE));
    assert.equal(twice.status, 410, 'a second payment is refused with the link-problem page');
    assert.equal(titleOf(twice.text), 'Already paid');
  });

  test('a preauthorization request shows "Card authorized" and holds the card', async () => {
    const link = await newPayLink(service, merchant, { preauth: true, amount: '40.00' });
    const held = await post(link.path, cardForm(APPROVE));
    assert.equal(held.status, 200, held.text);
    assert.equal(titleOf(held.text), 'Card authorized');
    const stored = await service.store.transactions.find(merchant.id, transactionIdOf(held.text)!);
    assert.equal(stored?.status, 'authorized');
  });

  test('a decline answers 402 with the form again: what the shopper typed but the card number and code, the reason, what to do next', async () => {
    for (const [number, message] of [
      [DECLINE, 'Your card was declined.'],
      [NO_FUNDS, 'Your card has insufficient funds.'],
    ] as const) {
      const link = await newPayLink(service, merchant);
      const form = cardForm(number, { card_name: 'Jane "J" Doe' });
      const declined = await post(link.path, form);
      assert.equal(declined.status, 402, declined.text);
      assert.equal(titleOf(declined.text), 'Pay Blue &lt;Bottle&gt; Cafe');
      assert.match(
        declined.text,
        /<div class="summary" role="alert"[^>]*tabindex="-1" autofocus>\n<h2 id="error-summary-title">Payment declined<\/h2>/,
      );
      assert.ok(declined.text.includes(`<a href="#card-number">${message}</a>`), message);
      assert.ok(
        declined.text.includes(
          'Nothing was charged. Check the details below, then try again with another card or choose Bank account.',
        ),
      );
      assert.match(tagWithId(declined.text, 'card-name'), /value="Jane &quot;J&quot; Doe"/, 'the name is kept');
      assert.ok(tagWithId(declined.text, 'card-exp').includes(`value="${form.exp}"`), 'the expiry is kept');
      assert.match(tagWithId(declined.text, 'card-number'), /value=""/, 'the card number is typed again');
      assert.match(tagWithId(declined.text, 'card-cvc'), /value=""/, 'the security code is typed again');
      assert.equal(openerScript(declined), undefined, 'no report without an opener origin');
      assert.equal((await get(link.path)).status, 200, 'the customer may try again');
      const again = await post(link.path, cardForm(APPROVE));
      assert.equal(titleOf(again.text), 'Payment successful', 'and pays from the same link');
    }
  });

  test("the order reference is the merchant's; an id the service made for a pay button is never shown", async () => {
    const { change, result: made } = await createWidgetPayLink(
      service.store,
      merchant,
      { amount: '4.50' },
      { now: service.clock.now(), publicUrl: service.baseUrl },
    );
    await service.store.write(change);
    assert.match(made.request.order_id, /^w_/);
    const path = new URL(made.payLink).pathname;
    const page = await get(path);
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes(made.request.order_id), 'the internal id is not on the page');
    assert.doesNotMatch(page.text, /<dt>Order<\/dt>/);
    const paid = await post(path, cardForm(APPROVE));
    assert.equal(titleOf(paid.text), 'Payment successful');
    assert.ok(!paid.text.includes(made.request.order_id), 'nor on the receipt');

    const given = await newPayLink(service, merchant, { order_id: 'Order #1042' });
    assert.ok((await get(given.path)).text.includes('<dt>Order</dt><dd>Order #1042</dd>'));
  });

  test('the 3-D Secure card shows the challenge; pass pays, fail declines, and an answered step cannot be reused', async () => {
    const link = await newPayLink(service, merchant, { amount: '12.00' });
    const challenge = await post(link.path, cardForm(CHALLENGE));
    assert.equal(challenge.status, 200, challenge.text);
    assert.match(challenge.text, /Your bank asks you to confirm this payment/);
    assert.ok(challenge.text.includes(`<form method="post" action="${link.path}/3ds">`));
    const attempt = /<input type="hidden" name="attempt" value="([^"]+)">/.exec(challenge.text)?.[1];
    assert.ok(attempt, 'the challenge carries its attempt');
    assert.match(challenge.text, /<button type="submit" name="result" value="pass">Pass<\/button>/);
    assert.match(challenge.text, /<button type="submit" name="result" value="fail"[^>]*>Fail<\/button>/);

    const passed = await post(`${link.path}/3ds`, { attempt, result: 'pass' });
    assert.equal(passed.status, 200, passed.text);
    assert.equal(titleOf(passed.text), 'Payment successful');
    assert.equal(
      (await service.store.transactions.find(merchant.id, transactionIdOf(passed.text)!))?.status,
      'completed',
    );

    const other = await newPayLink(service, merchant);
    const typed = cardForm(CHALLENGE);
    const otherChallenge = await post(other.path, typed);
    const otherAttempt = /name="attempt" value="([^"]+)"/.exec(otherChallenge.text)![1]!;
    // The step carries the name and the expiry on (as the browser posts its hidden fields), never the number or code.
    const carried = Object.fromEntries(
      [...otherChallenge.text.matchAll(/<input type="hidden" name="(card_name|exp)" value="([^"]*)">/g)].map((m) => [
        m[1]!,
        m[2]!,
      ]),
    );
    assert.deepEqual({ ...carried }, { card_name: typed.card_name, exp: typed.exp });
    assert.doesNotMatch(otherChallenge.text, /name="(card_number|cvc)"/);
    const failed = await post(`${other.path}/3ds`, { attempt: otherAttempt, result: 'fail', ...carried });
    assert.equal(failed.status, 402);
    assert.match(failed.text, /3-D Secure failed/);
    assert.match(
      tagWithId(failed.text, 'card-name'),
      new RegExp(`value="${typed.card_name}"`),
      'the form after a failed step keeps the name',
    );
    assert.ok(tagWithId(failed.text, 'card-exp').includes(`value="${typed.exp}"`), 'and the expiry');
    const reused = await post(`${other.path}/3ds`, { attempt: otherAttempt, result: 'pass' });
    assert.equal(reused.status, 409);
    assert.match(reused.text, /role="alert"[\s\S]*already answered/);
    assert.match(reused.text, /id="card-form"/, 'the pay page again, to enter the card anew');
  });

  test('a request with require_3ds challenges even the approving card', async () => {
    const link = await newPayLink(service, merchant, { require_3ds: true });
    const challenge = await post(link.path, cardForm(APPROVE));
    assert.equal(challenge.status, 200);
    assert.match(challenge.text, /Your bank asks you to confirm this payment/);
  });

  test('a bank payment shows the pending page', async () => {
    const link = await newPayLink(service, merchant, { amount: '80.00' });
    const pending = await post(link.path, {
      method: 'ach',
      account_name: 'Jane Doe',
      routing_number: '110000000',
      account_number: '000123456789',
    });
    assert.equal(pending.status, 200, pending.text);
    assert.equal(titleOf(pending.text), 'Payment submitted');
    assert.match(pending.text, /Payment submitted: bank payments take a few days to clear/);
    assert.doesNotMatch(pending.text, /000123456789/);
    assert.equal(
      (await service.store.transactions.find(merchant.id, transactionIdOf(pending.text)!))?.status,
      'pending',
    );
  });

  test('a refused card re-renders the page with the message, 400, and never echoes the number or the code', async () => {
    const link = await newPayLink(service, merchant);
    const bad = '4242424242424241';
    const refused = await post(link.path, cardForm(bad, { cvc: '987', card_name: 'Jane <Doe>' }));
    assert.equal(refused.status, 400);
    assertPageHeaders(refused, `${PAGE_CSP}; script-src 'nonce-${scriptNonce(refused.text)}'`);
    assert.match(
      refused.text,
      /<div class="summary" role="alert"[^>]*>[\s\S]*<a href="#card-number">The card number is not valid\.<\/a>/,
    );
    assert.doesNotMatch(refused.text, new RegExp(bad));
    // As a value or a text of its own: the three digits may occur inside the order id's timestamp.
    assert.doesNotMatch(refused.text, /"987"|>987</);
    assert.match(tagWithId(refused.text, 'card-number'), /value=""/);
    assert.match(tagWithId(refused.text, 'card-number'), /aria-invalid="true"/);
    assert.match(tagWithId(refused.text, 'card-cvc'), /value=""/);
    assert.match(tagWithId(refused.text, 'card-name'), /value="Jane &lt;Doe&gt;"/, 'what is not secret is kept');
    assert.match(refused.text, /type it again/);

    const badExpiry = await post(link.path, cardForm(APPROVE, { exp: '12 / 2x' }));
    assert.equal(badExpiry.status, 400);
    assert.match(badExpiry.text, /expiry date as MM \/ YY/);
    assert.match(tagWithId(badExpiry.text, 'card-exp'), /aria-invalid="true"/);
    assert.match(tagWithId(badExpiry.text, 'card-exp'), /value="12 \/ 2x"/, 'the expiry is kept to be corrected');
    const { exp: _exp, ...withoutExpiry } = cardForm(APPROVE);
    const noExpiry = await post(link.path, {
      ...withoutExpiry,
      exp_month: '12',
      exp_year: String(new Date().getUTCFullYear() + 3),
    });
    assert.equal(noExpiry.status, 400, 'the expiry is the one `exp` field: other fields are not read for it');
    assert.match(noExpiry.text, /expiry date as MM \/ YY/);

    const badRouting = await post(link.path, {
      method: 'ach',
      account_name: 'Jane',
      routing_number: '123456789',
      account_number: '55554444',
    });
    assert.equal(badRouting.status, 400);
    assert.match(badRouting.text, /<a href="#ach-routing">The routing number is not a valid/);
    assert.doesNotMatch(badRouting.text, /55554444/);
    assert.match(tagWithId(badRouting.text, 'ach-routing'), /value="123456789"/);

    const noMethod = await post(link.path, { card_number: APPROVE });
    assert.equal(noMethod.status, 400);
    assert.match(noMethod.text, /Choose how to pay/);
  });

  test('an unknown token answers 404 to every page', async () => {
    const unknown = await get('/pay/pl_nothing-here');
    assert.equal(unknown.status, 404);
    assert.equal(titleOf(unknown.text), 'Pay link not found');
    assert.match(unknown.text, /This pay link is not valid\./);
    assertPageHeaders(unknown);
    assert.equal((await post('/pay/pl_nothing-here', cardForm(APPROVE))).status, 404);
    assert.equal((await post('/pay/pl_nothing-here/3ds', { attempt: 'tds_x', result: 'pass' })).status, 404);
  });

  test('with a valid ?origin the outcome pages post the outcome to exactly that origin, by the CSP nonce', async () => {
    const link = await newPayLink(service, merchant, { amount: '15.00' });
    const page = await get(`${link.path}?origin=${encodeURIComponent(SHOP)}`);
    assert.equal(
      page.text.match(/<input type="hidden" name="origin" value="https:\/\/shop\.example">/g)?.length,
      2,
      'both forms carry the origin',
    );
    // The sandbox merchant has no allowed origins set, so any page may frame it (the pay button's dialog).
    const framedCsp = PAGE_CSP.replace("frame-ancestors 'self'", `frame-ancestors 'self' ${SHOP}`);
    assertPageHeaders(page, `${framedCsp}; script-src 'nonce-${scriptNonce(page.text)}'`);

    const declined = await post(link.path, cardForm(DECLINE, { origin: SHOP }));
    const declinedScript = openerScript(declined);
    assert.ok(declinedScript, 'the failure page reports to the opener');
    assert.equal(declinedScript.target, SHOP);
    assert.equal(declinedScript.message.status, 'declined');
    assert.equal(declinedScript.message.amount, 15);
    assert.equal(declined.status, 402);
    assert.equal(
      declined.text.match(/<input type="hidden" name="origin" value="https:\/\/shop\.example">/g)?.length,
      2,
      'the form again, for the opener',
    );

    const challenge = await post(link.path, cardForm(CHALLENGE, { origin: SHOP }));
    assert.match(challenge.text, /<input type="hidden" name="origin" value="https:\/\/shop\.example">/);
    assert.equal(openerScript(challenge), undefined);
    const attempt = /name="attempt" value="([^"]+)"/.exec(challenge.text)![1]!;
    const paid = await post(`${link.path}/3ds`, { attempt, result: 'pass', origin: SHOP });
    const script = openerScript(paid);
    assert.ok(script, 'the success page reports to the opener');
    assert.deepEqual(script.message, {
      type: 'paykit:payment',
      status: 'approved',
      transaction_id: link.request.sales_id,
      amount: 15,
      order_id: link.request.order_id,
    });
    assert.equal(script.target, SHOP);
    assert.doesNotMatch(paid.text, /'\*'|"\*"/);
    assertPageHeaders(paid, `${framedCsp}; script-src 'nonce-${script.nonce}'`);
    assert.match(script.nonce, /^[A-Za-z0-9+/]{22}==$/);

    const achLink = await newPayLink(service, merchant);
    const pending = await post(achLink.path, {
      method: 'ach',
      account_name: 'Jane',
      routing_number: '110000000',
      account_number: '1234',
      origin: 'http://localhost:5173',
    });
    const pendingScript = openerScript(pending);
    assert.equal(pendingScript?.target, 'http://localhost:5173');
    assert.equal(pendingScript?.message.status, 'pending');
    assert.notEqual(pendingScript?.nonce, script.nonce, 'a fresh nonce per response');
  });

  test('anything but an http(s) origin is ignored: no hidden input, no script', async () => {
    for (const origin of [
      '*',
      'javascript:alert(1)',
      'https://shop.example/path',
      'ftp://shop.example',
      'null',
      'https://shop.example"><b>',
    ]) {
      const link = await newPayLink(service, merchant);
      const page = await get(`${link.path}?origin=${encodeURIComponent(origin)}`);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, /name="origin"/, `${origin} is ignored`);
      const paid = await post(link.path, cardForm(APPROVE, { origin }));
      assert.equal(paid.status, 200);
      assert.equal(openerScript(paid), undefined, `${origin} gets no script`);
      assert.doesNotMatch(paid.text, /<script/);
      assertPageHeaders(paid);
    }
  });

  test('the QR code is a PNG of the pay link, also once paid; unknown tokens get 404', async () => {
    const link = await newPayLink(service, merchant);
    assert.equal(link.qrCodeLink, `${service.baseUrl}${link.path}/qr.png`);
    const image = await fetch(link.qrCodeLink);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.equal(image.headers.get('cache-control'), 'private, max-age=300');
    const bytes = Buffer.from(await image.arrayBuffer());
    assert.deepEqual(bytes.subarray(0, 8), PNG_SIGNATURE);
    assert.ok(bytes.length > 200);

    await post(link.path, cardForm(APPROVE));
    const paidImage = await fetch(link.qrCodeLink);
    assert.equal(paidImage.status, 200, 'a paid link still has its image');
    assert.deepEqual(Buffer.from(await paidImage.arrayBuffer()).subarray(0, 8), PNG_SIGNATURE);

    const unknown = await fetch(`${service.baseUrl}/pay/pl_nothing-here/qr.png`);
    assert.equal(unknown.status, 404);
    assert.match(String(unknown.headers.get('content-type')), /^text\/plain/);
  });

  test('no page ever contains a submitted card number', () => {
    assert.ok(submittedNumbers.size >= 5 && pages.length > 20);
    for (const number of submittedNumbers) {
      assert.ok(
        pages.every((page) => !page.includes(number)),
        `${number} never appears in a page`,
      );
    }
  });
});

describe('an expired pay link', () => {
  let service: TestService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  test('answers 410 after seven days, to the page and to a payment, and its QR code is still served', async () => {
    const merchant = await approvedMerchant(service);
    const link = await newPayLink(service, merchant);
    service.clock.advance(8 * DAY_MS);
    const page = await service.request('GET', link.path);
    assert.equal(page.status, 410);
    assert.equal(titleOf(page.text), 'Pay link expired');
    assert.match(page.text, /This pay link has expired: ask the merchant for a new one\./);
    const paid = await service.request('POST', link.path, { form: cardForm(APPROVE) });
    assert.equal(paid.status, 410);
    assert.equal((await fetch(`${service.baseUrl}${link.path}/qr.png`)).status, 200);
  });
});
