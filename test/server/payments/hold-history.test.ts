import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, eventsAbout, partnerClient } from '../../support/payments.ts';
import { consoleCall, consoleSession, payment } from '../../support/console.ts';
import { checkLedger } from '../../support/ledger.ts';

type Move = { move: string; amount: string; at: string };

/** Issue 44: a hold keeps its history (authorized, each raise and cut, captured, released) in GET /preauth and its events. */
for (const database of testDatabases()) {
  describe(`a hold's history (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
    });
    after(() => service.close());

    const call = (path: string, fields: Record<string, unknown>) =>
      service.api('POST', path, { json: { merchant_key: merchantKey, ...fields } });
    const hold = async (id: string) => {
      const answer = await service.api('GET', `/preauth/${id}`, { json: { merchant_key: merchantKey } });
      assert.equal(answer.status, 200, answer.text);
      return answer.body.data;
    };
    const moves = (history: Move[]) => history.map((m) => `${m.move} ${m.amount}`);

    test('$80 authorized, raised to $95, cut to $90, captured $60 in the console: each move, the capture and the $30 released', async () => {
      const id = await payment(service, merchantKey, '80.00', { preauth: true });
      const fresh = await hold(id);
      assert.equal(fresh.authorized_amount, '80.00');
      assert.equal(fresh.captured_amount, null);
      assert.equal(fresh.released_amount, null);
      assert.deepEqual(moves(fresh.history), ['authorized 80.00']);

      const up = await call('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: '80.00',
        new_authorized_amount: '95.00',
      });
      assert.equal(up.status, 200, up.text);
      service.clock.advance(60_000);
      const down = await call('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: '95.00',
        new_authorized_amount: '90.00',
      });
      assert.equal(down.status, 200, down.text);
      const { session_token } = await consoleSession(service, merchantKey, { captures: true });
      const inConsole = consoleCall(service, session_token);
      const captured = await inConsole('POST', `/${id}/capture`, { amount: '60.00' });
      assert.equal(captured.status, 200, captured.text);

      const read = await hold(id);
      assert.deepEqual(moves(read.history), [
        'authorized 80.00',
        'increased 95.00',
        'decreased 90.00',
        'captured 60.00',
        'released 30.00',
      ]);
      assert.equal(read.authorized_amount, '80.00', 'first authorized, not the captured amount');
      assert.equal(read.captured_amount, '60.00');
      assert.equal(read.released_amount, '30.00');
      assert.equal(read.amount, '60.00', 'amount: what the hold came to');
      assert.ok(
        read.history.every((m: Move, i: number) => i === 0 || m.at >= read.history[i - 1].at),
        'oldest first',
      );

      const [increment] = await eventsAbout(service, 'preauth.increment', id);
      assert.equal(increment!.data.amount, 95);
      assert.equal(increment!.data.authorized_amount, 80);
      assert.deepEqual(
        (increment!.data.history as { move: string; amount: number }[]).map((m) => [m.move, m.amount]),
        [
          ['authorized', 80],
          ['increased', 95],
        ],
      );
      const [charge] = await eventsAbout(service, 'preauth.charge', id);
      assert.equal(charge!.data.amount, 60);
      assert.equal(charge!.data.authorized_amount, 80);
      assert.equal(charge!.data.captured_amount, 60);
      assert.equal(charge!.data.released_amount, 30);

      // The console's timeline of the hold and of its sale: not "Created $60 / Authorized $60".
      for (const which of [id, read.captured_transaction_id]) {
        const details = await inConsole('GET', `/${which}`);
        assert.equal(details.status, 200, details.text);
        const steps = details.body.data.timeline
          .filter((s: { what: string }) => s.what !== 'receipt_sent')
          .map((s: { what: string; amount?: string }) => `${s.what} ${s.amount}`);
        assert.deepEqual(steps, [
          'created 80.00',
          'authorized 80.00',
          'authorized 95.00',
          'authorized 90.00',
          'captured 60.00',
          'released 30.00',
        ]);
      }
      await checkLedger(service.store, partnerClient(service), merchantKey, merchantId);
    });

    test('a whole capture releases nothing; a void releases what the hold held', async () => {
      const whole = await payment(service, merchantKey, '40.00', { preauth: true });
      assert.equal((await call('/preauth/capture', { transaction_id: whole })).status, 200);
      const captured = await hold(whole);
      assert.deepEqual(moves(captured.history), ['authorized 40.00', 'captured 40.00']);
      assert.equal(captured.released_amount, null);

      const voided = await payment(service, merchantKey, '25.00', { preauth: true });
      const released = await call('/preauth/void', { transaction_id: voided });
      assert.equal(released.status, 200, released.text);
      const read = await hold(voided);
      assert.deepEqual(moves(read.history), ['authorized 25.00', 'released 25.00']);
      assert.equal(read.released_amount, '25.00');
      assert.equal(read.captured_amount, null);
    });

    test('a hold from before histories were kept reads as authorized at its amount, with its capture', async () => {
      const id = await payment(service, merchantKey, '30.00', { preauth: true });
      await service.store.transactions.update(id, { hold_history: null });
      assert.equal((await call('/preauth/capture', { transaction_id: id })).status, 200);
      await service.store.transactions.update(id, { hold_history: null });
      const read = await hold(id);
      assert.deepEqual(moves(read.history), ['authorized 30.00', 'captured 30.00']);
      const listed = await service.api('GET', '/preauth', { json: { merchant_key: merchantKey, perPage: 100 } });
      assert.equal(listed.status, 200, listed.text);
      const item = listed.body.data.items.find((h: { transaction_id: string }) => h.transaction_id === id);
      assert.equal(item.captured_amount, '30.00');
    });
  });
}
