import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, eventsAbout, paidSale, partnerClient } from '../../support/payments.ts';
import { checkLedger } from '../../support/ledger.ts';
import { DISPUTE_REASONS } from '../../../server/domain/disputes.ts';
import type { PaykitClient } from '../../../client/index.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32)]);
const file = (filename: string, bytes: Buffer) => ({ filename, content_base64: bytes.toString('base64') });
const money = (text: string) => Math.round(Number(text) * 100);

for (const database of testDatabases()) {
  describe(`disputes (${database})`, () => {
    let service: TestService;
    let paykit: PaykitClient;
    before(async () => {
      service = await startService({ database });
      paykit = partnerClient(service);
    });
    after(() => service.close());

    /** A merchant with one card sale of `amount`, its ledger check, and its balance in minor units. */
    const merchantWithSale = async (amount = '100.00') => {
      const m = await approvedMerchant(service);
      const sale = await paidSale(service, m.merchantKey, amount);
      const balance = async () => {
        const b = await paykit.payouts.balance(m.merchantKey);
        return money(b.available) + money(b.pending);
      };
      return { ...m, sale, balance, check: () => checkLedger(service.store, paykit, m.merchantKey, m.merchantId) };
    };
    const open = (merchantKey: string, transactionId: string, extra: Record<string, unknown> = {}) =>
      paykit.sandbox.openDispute({ merchant_key: merchantKey, transaction_id: transactionId, ...extra });
    const refused = async (call: Promise<unknown>, status: number, pattern?: RegExp) => {
      const error = (await call.then(
        () => assert.fail('refused'),
        (e: unknown) => e,
      )) as { status: number; message: string };
      assert.equal(error.status, status, error.message);
      if (pattern) assert.match(error.message, pattern);
    };

    test('opened: amount and 15.00 withdrawn; the sale can be neither refunded nor voided (409 naming the dispute); won by the evidence words: both given back', async () => {
      const m = await merchantWithSale('100.00');
      const before = await m.balance();
      await m.check();
      const dispute = await open(m.merchantKey, m.sale, { reason: 'fraudulent' });
      assert.equal(dispute.status, 'needs_response');
      assert.equal(dispute.amount, '100.00');
      assert.equal(dispute.fee, '15.00');
      assert.equal(dispute.funds_withdrawn, true);
      assert.equal(
        Date.parse(dispute.evidence_due_by) - Date.parse(dispute.created_date),
        7 * 86_400_000,
        'evidence due 7 days on the sandbox clock',
      );
      assert.equal(await m.balance(), before - 10_000 - 1_500);
      await m.check();

      await refused(
        paykit.transactions.refund({ merchant_key: m.merchantKey, transaction_id: m.sale, amount: '5.00' }),
        409,
        new RegExp(dispute.dispute_id),
      );
      await refused(
        paykit.transactions.void({ merchant_key: m.merchantKey, transaction_id: m.sale }),
        409,
        new RegExp(dispute.dispute_id),
      );
      const listed = (await paykit.transactions.list(m.merchantKey).toArray()).find((t) => t.transaction_id === m.sale);
      assert.equal(listed?.dispute_id, dispute.dispute_id, 'its listing row says it is disputed');
      const details = await paykit.transactions.get(m.merchantKey, m.sale);
      assert.equal(details.dispute_id, dispute.dispute_id, 'so do its details');

      const saved = await paykit.disputes.saveEvidence(m.merchantKey, dispute.dispute_id, {
        explanation: 'The card holder signed for it: winning_evidence',
        shipping_carrier: 'UPS',
        files: [file('signature.pdf', PDF), file('receipt.png', PNG)],
      });
      assert.equal(saved.files.length, 2);
      assert.equal(saved.evidence.shipping_carrier, 'UPS');
      const again = await paykit.disputes.saveEvidence(m.merchantKey, dispute.dispute_id, {
        shipping_tracking_number: '1Z999',
        files: [file('label.jpg', JPEG)],
      });
      assert.equal(again.files.length, 3, 'evidence may be saved several times; files add up');
      assert.equal(again.evidence.shipping_carrier, 'UPS', 'a field not sent is kept');

      const submitted = await paykit.disputes.submit(m.merchantKey, dispute.dispute_id);
      assert.equal(submitted.status, 'under_review');
      await refused(
        paykit.disputes.saveEvidence(m.merchantKey, dispute.dispute_id, { explanation: 'more' }),
        409,
        /under review/,
      );
      await paykit.sandbox.advanceClock(1);
      const won = await paykit.disputes.get(m.merchantKey, dispute.dispute_id);
      assert.equal(won.status, 'won');
      assert.deepEqual(
        won.history.map((h) => h.status),
        ['needs_response', 'under_review', 'won'],
      );
      assert.equal(await m.balance(), before, 'winning gives back the amount and the fee');
      await m.check();
      for (const type of [
        'dispute.created',
        'dispute.funds_withdrawn',
        'dispute.updated',
        'dispute.closed',
        'dispute.funds_reinstated',
      ])
        assert.equal((await eventsAbout(service, type, dispute.dispute_id)).length, 1, type);
      await refused(
        paykit.transactions.refund({ merchant_key: m.merchantKey, transaction_id: m.sale, amount: '5.00' }),
        409,
      );
    });

    test('lost when the clock passes evidence_due_by: the money stays withdrawn, nothing can be sent after', async () => {
      const m = await merchantWithSale('40.00');
      const before = await m.balance();
      const dispute = await open(m.merchantKey, m.sale, { reason: 'product_not_received' });
      await paykit.sandbox.advanceClock(7 * 24 - 1);
      assert.equal((await paykit.disputes.get(m.merchantKey, dispute.dispute_id)).status, 'needs_response');
      await paykit.sandbox.advanceClock(2);
      const lost = await paykit.disputes.get(m.merchantKey, dispute.dispute_id);
      assert.equal(lost.status, 'lost');
      assert.equal(await m.balance(), before - 4_000 - 1_500);
      await m.check();
      await refused(
        paykit.disputes.saveEvidence(m.merchantKey, dispute.dispute_id, { explanation: 'late' }),
        409,
        /lost/,
      );
      await refused(paykit.disputes.submit(m.merchantKey, dispute.dispute_id), 409);
      await refused(paykit.disputes.accept(m.merchantKey, dispute.dispute_id), 409);
      assert.equal((await eventsAbout(service, 'dispute.closed', dispute.dispute_id)).length, 1);
    });

    test('losing_evidence loses at the next clock move; without the words it is won 7 days after submission', async () => {
      const m = await merchantWithSale('30.00');
      const before = await m.balance();
      const losing = await open(m.merchantKey, m.sale, { reason: 'duplicate', amount: '20.00' });
      assert.equal(losing.amount, '20.00');
      await paykit.disputes.saveEvidence(m.merchantKey, losing.dispute_id, { explanation: 'losing_evidence' });
      await paykit.disputes.submit(m.merchantKey, losing.dispute_id);
      await paykit.sandbox.advanceClock(1);
      assert.equal((await paykit.disputes.get(m.merchantKey, losing.dispute_id)).status, 'lost');
      assert.equal(await m.balance(), before - 2_000 - 1_500);
      await m.check();

      const other = await paidSale(service, m.merchantKey, '50.00');
      const plain = await open(m.merchantKey, other, { reason: 'subscription_canceled' });
      await paykit.disputes.saveEvidence(m.merchantKey, plain.dispute_id, { refund_policy: 'Cancel any time.' });
      await paykit.disputes.submit(m.merchantKey, plain.dispute_id);
      await paykit.sandbox.advanceClock(6 * 24);
      assert.equal((await paykit.disputes.get(m.merchantKey, plain.dispute_id)).status, 'under_review');
      await paykit.sandbox.advanceClock(25);
      assert.equal((await paykit.disputes.get(m.merchantKey, plain.dispute_id)).status, 'won');
      await m.check();
    });

    test('an inquiry withdraws nothing; unanswered it becomes a chargeback (money out, a new due date); accepting one concedes it', async () => {
      const m = await merchantWithSale('60.00');
      const before = await m.balance();
      const inquiry = await open(m.merchantKey, m.sale, { reason: 'general', inquiry: true });
      assert.equal(inquiry.status, 'inquiry');
      assert.equal(inquiry.funds_withdrawn, false);
      assert.equal(await m.balance(), before);
      await paykit.sandbox.advanceClock(7 * 24 + 1);
      const escalated = await paykit.disputes.get(m.merchantKey, inquiry.dispute_id);
      assert.equal(escalated.status, 'needs_response');
      assert.equal(escalated.funds_withdrawn, true);
      assert.ok(escalated.evidence_due_by > inquiry.evidence_due_by);
      assert.equal(await m.balance(), before - 6_000 - 1_500);
      await m.check();

      const other = await paidSale(service, m.merchantKey, '10.00');
      const conceded = await open(m.merchantKey, other, { inquiry: true });
      const accepted = await paykit.disputes.accept(m.merchantKey, conceded.dispute_id);
      assert.equal(accepted.status, 'lost');
      assert.equal(accepted.funds_withdrawn, true);
      await m.check();
    });

    test('every reason; the listing filters by status and reason, pages by cursor, and shows only the merchant’s own', async () => {
      const m = await approvedMerchant(service);
      const ids: string[] = [];
      for (const reason of DISPUTE_REASONS) {
        const sale = await paidSale(service, m.merchantKey, '12.00');
        ids.push((await open(m.merchantKey, sale, { reason })).dispute_id);
      }
      await paykit.disputes.accept(m.merchantKey, ids[0]!);
      const all = await paykit.disputes.list(m.merchantKey, { perPage: 3 }).toArray();
      assert.deepEqual(
        all.map((d) => d.dispute_id),
        [...ids].reverse(),
        'newest first, page after page',
      );
      const fraud = await paykit.disputes.list(m.merchantKey, { reason: 'fraudulent' });
      assert.deepEqual(
        fraud.items.map((d) => d.reason),
        ['fraudulent'],
      );
      const lost = await paykit.disputes.list(m.merchantKey, { status: 'lost' });
      assert.deepEqual(
        lost.items.map((d) => d.dispute_id),
        [ids[0]],
      );
      const none = await paykit.disputes.list(m.merchantKey, { status: 'won', reason: 'general' });
      assert.equal(none.items.length, 0);
      const other = await approvedMerchant(service);
      assert.equal((await paykit.disputes.list(other.merchantKey)).items.length, 0);
    });

    test('the sandbox dispute cards: approved, then disputed at once (fraudulent, product_not_received, an inquiry)', async () => {
      const m = await approvedMerchant(service);
      for (const [card, reason, status] of [
        ['4000000000000259', 'fraudulent', 'needs_response'],
        ['4000000000002685', 'product_not_received', 'needs_response'],
        ['4000000000001976', 'general', 'inquiry'],
      ] as const) {
        const sale = await paidSale(service, m.merchantKey, '10.00', {}, card);
        const details = await paykit.transactions.get(m.merchantKey, sale);
        assert.equal(details.status, 'completed', 'the payment succeeded');
        assert.ok(details.dispute_id, `${card} is disputed`);
        const dispute = await paykit.disputes.get(m.merchantKey, details.dispute_id);
        assert.deepEqual([dispute.reason, dispute.status, dispute.transaction_id], [reason, status, sale]);
        assert.equal((await eventsAbout(service, 'dispute.created', dispute.dispute_id)).length, 1);
      }
      await checkLedger(service.store, paykit, m.merchantKey, m.merchantId);
    });

    test("the sale's receipt says it is disputed", async () => {
      const m = await approvedMerchant(service);
      const email = `shopper-${Date.now()}@example.com`;
      const sale = await paidSale(service, m.merchantKey, '33.17', { email });
      const messages: { pay_link: string; recipient: string }[] = (await service.api('GET', '/sandbox/messages')).body
        .data;
      const receipt = messages.find((msg) => msg.recipient === email && msg.pay_link.includes('/receipts/'));
      assert.ok(receipt, 'a receipt was sent');
      const path = new URL(receipt.pay_link).pathname;
      assert.doesNotMatch((await service.request('GET', path)).text, /Disputed/);
      await open(m.merchantKey, sale);
      assert.match((await service.request('GET', path)).text, /Disputed by the card holder/);
    });

    test('a sale that is not a completed card sale, one disputed already, or refunded in full is refused', async () => {
      const m = await merchantWithSale('20.00');
      await refused(open(m.merchantKey, 'txn_unknown'), 404);
      await open(m.merchantKey, m.sale);
      await refused(open(m.merchantKey, m.sale), 409, /already disputed/);
      const refunded = await paidSale(service, m.merchantKey, '20.00');
      await paykit.transactions.refund({ merchant_key: m.merchantKey, transaction_id: refunded, amount: '15.00' });
      await refused(open(m.merchantKey, refunded, { amount: '6.00' }), 400, /at most 5\.00/);
      assert.equal((await open(m.merchantKey, refunded)).amount, '5.00', 'up to what was not refunded');
      const whole = await paidSale(service, m.merchantKey, '20.00');
      await paykit.transactions.refund({ merchant_key: m.merchantKey, transaction_id: whole, amount: '20.00' });
      await refused(open(m.merchantKey, whole), 409, /nothing is left/);
      const hold = await paidSale(service, m.merchantKey, '14.00', { preauth: true });
      await refused(open(m.merchantKey, hold), 409, /completed card sale/);
      const captured = await paykit.preauth.capture({ merchant_key: m.merchantKey, transaction_id: hold });
      assert.equal((await open(m.merchantKey, captured.transaction_id)).amount, '14.00', "a captured hold's sale");
      await m.check();
    });

    test('bad uploads: a clear 4xx and nothing stored', async () => {
      const m = await merchantWithSale('25.00');
      const dispute = await open(m.merchantKey, m.sale);
      const upload = (files: unknown[], extra: Record<string, unknown> = {}) =>
        service.api('POST', `/disputes/${dispute.dispute_id}/evidence`, {
          json: { merchant_key: m.merchantKey, explanation: 'x', files, ...extra },
        });
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      const html = Buffer.from('<!doctype html><script>alert(1)</script>');
      const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64)]);
      for (const [files, status, pattern] of [
        [[file('photo.png', PDF)], 400, /does not match its bytes/],
        [[file('doc.pdf', PNG)], 400, /does not match its bytes/],
        [[file('image.png', svg)], 400, /not a PDF, PNG or JPEG/],
        [[file('page.png', html)], 400, /not a PDF, PNG or JPEG/],
        [[file('bomb.pdf', zip)], 400, /not a PDF, PNG or JPEG/],
        [[file('../../etc/passwd.png', PNG)], 400, /filename/],
        [[file('dir/a.png', PNG)], 400, /filename/],
        [[file('dir\\a.png', PNG)], 400, /filename/],
        [[file('.hidden.png', PNG)], 400, /filename/],
        [[file('a\u0000.png', PNG)], 400, /filename/],
        [[file('notes.txt', PDF)], 400, /filename/],
        [[file('empty.pdf', Buffer.alloc(0))], 400, /empty/],
        [[{ filename: 'a.pdf', content_base64: 'not base64!' }], 400, /base64/],
        [[file('ok.pdf', PDF), file('bad.png', svg)], 400, /bad\.png/],
      ] as const) {
        const answer = await upload([...files]);
        assert.equal(answer.status, status, `${files.map((f) => f.filename).join()}: ${answer.text}`);
        assert.equal(answer.body.result, false);
        assert.match(answer.body.message, pattern);
      }
      const badDate = await upload([], { service_date: '2026-02-30' });
      assert.equal(badDate.status, 400);
      assert.match(badDate.body.message, /service_date/);
      const oversize = Buffer.alloc(5 * 1024 * 1024 + 1, 0);
      PDF.copy(oversize);
      const tooBig = await upload([file('big.pdf', oversize)]);
      assert.ok([400, 413].includes(tooBig.status), tooBig.text);
      assert.match(tooBig.body.message, /over 5 MB|too large|larger/i);
      const huge = await service.api('POST', `/disputes/${dispute.dispute_id}/evidence`, {
        raw: Buffer.concat([
          Buffer.from(`{"merchant_key":"${m.merchantKey}","files":[{"filename":"a.pdf","content_base64":"`),
          Buffer.alloc(50 * 1024 * 1024, 0x41),
          Buffer.from('"}]}'),
        ]),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(huge.status, 413, 'a 50 MB upload is refused');
      const kept = await paykit.disputes.get(m.merchantKey, dispute.dispute_id);
      assert.equal(kept.files.length, 0, 'nothing stored');
      assert.deepEqual(kept.evidence, {}, 'not even the text beside a bad file');

      for (let i = 0; i < 10; i++)
        assert.equal((await upload([file(`page-${i}.pdf`, PDF)])).status, 200, `file ${i + 1} of 10`);
      const eleventh = await upload([file('page-10.pdf', PDF)]);
      assert.equal(eleventh.status, 400);
      assert.match(eleventh.body.message, /at most 10 files/);
      assert.equal((await paykit.disputes.get(m.merchantKey, dispute.dispute_id)).file_count, 10);

      const other = await open(m.merchantKey, await paidSale(service, m.merchantKey, '9.00'));
      const largest = oversize.subarray(0, 5 * 1024 * 1024);
      const saved = await paykit.disputes.saveEvidence(m.merchantKey, other.dispute_id, {
        files: [file('largest.pdf', largest)],
      });
      assert.equal(saved.files[0]?.size, 5 * 1024 * 1024, 'a file of exactly 5 MB is taken');
    });

    test("a file is served to its merchant only; another merchant's dispute is 403, another client's 404, nothing changed", async () => {
      const m = await merchantWithSale('25.00');
      const dispute = await open(m.merchantKey, m.sale);
      const saved = await paykit.disputes.saveEvidence(m.merchantKey, dispute.dispute_id, {
        files: [file('proof.pdf', PDF)],
      });
      const fileId = saved.files[0]!.file_id;
      const path = `/disputes/${dispute.dispute_id}/files/${fileId}`;
      const served = await paykit.disputes.file(m.merchantKey, dispute.dispute_id, fileId);
      assert.equal(served.content_type, 'application/pdf');
      assert.equal(served.filename, 'proof.pdf');
      assert.deepEqual(Buffer.from(served.content_base64, 'base64'), PDF);

      const sibling = await approvedMerchant(service);
      const asSibling = await service.api('GET', `${path}?merchant_key=${encodeURIComponent(sibling.merchantKey)}`);
      assert.equal(asSibling.status, 403);
      await refused(paykit.disputes.get(sibling.merchantKey, dispute.dispute_id), 403);
      const evidence = await service.api('POST', `/disputes/${dispute.dispute_id}/evidence`, {
        json: { merchant_key: sibling.merchantKey, explanation: 'mine now' },
      });
      assert.equal(evidence.status, 403);
      assert.equal(evidence.body.code, 'forbidden');
      await refused(paykit.disputes.accept(sibling.merchantKey, dispute.dispute_id), 403);

      const stranger = await service.newClient('Another platform');
      const strangerPaykit = partnerClient(service, { id: stranger.clientId, secret: stranger.secretKey });
      const theirs = await approvedMerchant(service, { id: stranger.clientId, secret: stranger.secretKey });
      await refused(strangerPaykit.disputes.get(theirs.merchantKey, dispute.dispute_id), 404);
      await refused(strangerPaykit.disputes.submit(theirs.merchantKey, dispute.dispute_id), 404);
      await refused(strangerPaykit.disputes.get(m.merchantKey, dispute.dispute_id), 404);

      const unchanged = await paykit.disputes.get(m.merchantKey, dispute.dispute_id);
      assert.equal(unchanged.status, 'needs_response');
      assert.deepEqual(unchanged.evidence, {});
      assert.equal(unchanged.files.length, 1);
    });

    test('accepting and submitting at once: one wins, the other is a 409', async () => {
      for (let round = 0; round < 3; round++) {
        const m = await merchantWithSale('15.00');
        const dispute = await open(m.merchantKey, m.sale);
        await paykit.disputes.saveEvidence(m.merchantKey, dispute.dispute_id, { explanation: 'delivered' });
        const outcomes = await Promise.allSettled([
          paykit.disputes.accept(m.merchantKey, dispute.dispute_id),
          paykit.disputes.submit(m.merchantKey, dispute.dispute_id),
          paykit.disputes.accept(m.merchantKey, dispute.dispute_id),
        ]);
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        assert.equal(won.length, 1, 'exactly one lands');
        for (const o of outcomes)
          if (o.status === 'rejected') assert.equal((o.reason as { status: number }).status, 409);
        const final = await paykit.disputes.get(m.merchantKey, dispute.dispute_id);
        assert.equal(final.status, (won[0] as PromiseFulfilledResult<{ status: string }>).value.status);
        assert.equal(final.history.length, 2, 'one step after opening');
        await m.check();
      }
    });

    test('a retried submit with the same Idempotency-Key gets the first answer', async () => {
      const m = await merchantWithSale('15.00');
      const dispute = await open(m.merchantKey, m.sale);
      await paykit.disputes.saveEvidence(m.merchantKey, dispute.dispute_id, { explanation: 'delivered' });
      const options = { idempotencyKey: `submit-${dispute.dispute_id}` };
      const first = await paykit.disputes.submit(m.merchantKey, dispute.dispute_id, options);
      const again = await paykit.disputes.submit(m.merchantKey, dispute.dispute_id, options);
      assert.deepEqual(again, first);
    });
  });
}
