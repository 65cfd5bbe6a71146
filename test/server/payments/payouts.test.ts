import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import {
  approvedMerchant,
  eventsAbout,
  nextOrderId,
  paidSale,
  partnerClient,
  TEST_CARD,
} from '../../support/payments.ts';
import { checkLedger, hoursUntil } from '../../support/ledger.ts';
import { PAYOUT_PROBLEMS } from '../../../server/domain/payouts.ts';
import type { PaykitClient } from '../../../client/index.ts';

const MONDAY = 1;
const FRIDAY = 5;

for (const database of testDatabases()) {
  describe(`payouts (${database})`, () => {
    let service: TestService;
    let paykit: PaykitClient;
    before(async () => {
      service = await startService({ database });
      paykit = partnerClient(service);
      // Every scenario starts on a Monday at 10:00 UTC of the service clock, the days after it known.
      await paykit.sandbox.advanceClock(hoursUntil(service.clock.now(), MONDAY, 10));
    });
    after(() => service.close());

    const merchant = async () => {
      const m = await approvedMerchant(service);
      return { ...m, check: () => checkLedger(service.store, paykit, m.merchantKey, m.merchantId) };
    };
    const toNext = (weekday: number, hour: number) =>
      paykit.sandbox.advanceClock(hoursUntil(service.clock.now(), weekday, hour));

    test('the worked example: three sales, a refund, their fees, one payout that adds up to the cent, paid the next business day', async () => {
      const m = await merchant();
      await toNext(MONDAY, 10);
      const [first, second, third] = [
        await paidSale(service, m.merchantKey, '40.00'),
        await paidSale(service, m.merchantKey, '25.00'),
        await paidSale(service, m.merchantKey, '10.00'),
      ];
      // Fees 1.46 + 1.03 + 0.59: all pending until Friday (settled Wednesday, two business days after).
      assert.deepEqual(await paykit.payouts.balance(m.merchantKey), {
        currency: 'USD',
        available: '0.00',
        pending: '71.92',
      });
      await m.check();
      await paykit.sandbox.advanceClock(24);
      await paykit.transactions.refund({ merchant_key: m.merchantKey, transaction_id: second, amount: '5.00' });
      assert.deepEqual(
        await paykit.payouts.balance(m.merchantKey),
        { currency: 'USD', available: '0.00', pending: '66.92' },
        'a refund of pending money lowers the pending balance',
      );
      await m.check();

      await toNext(FRIDAY, 0);
      const [payout] = (await paykit.payouts.list(m.merchantKey)).items;
      assert.ok(payout, 'the clock reaching Friday made the payout');
      assert.equal(payout.amount, '66.92');
      assert.equal(payout.status, 'pending');
      assert.equal(payout.entry_count, 7);
      assert.equal(payout.period, service.clock.now().toISOString().slice(0, 10));
      assert.equal(payout.bank_last_four, '6789');
      assert.deepEqual(await paykit.payouts.balance(m.merchantKey), {
        currency: 'USD',
        available: '0.00',
        pending: '0.00',
      });
      await m.check();

      const entries = await paykit.payouts.entries(m.merchantKey, payout.payout_id, { perPage: 3 }).toArray();
      assert.equal(entries.length, 7, 'every entry, page after page');
      assert.deepEqual(
        entries.map((e) => [
          e.transaction_id === third ||
            e.transaction_id === first ||
            e.transaction_id === second ||
            e.type === 'refund',
          e.payout_id,
        ]),
        entries.map(() => [true, payout.payout_id]),
      );
      const byType = (type: string) =>
        entries
          .filter((e) => e.type === type)
          .map((e) => e.net)
          .sort();
      assert.deepEqual(byType('sale'), ['10.00', '25.00', '40.00']);
      assert.deepEqual(byType('fee'), ['-0.59', '-1.03', '-1.46']);
      assert.deepEqual(byType('refund'), ['-5.00']);
      const fee = entries.find((e) => e.type === 'fee' && e.transaction_id === first)!;
      assert.deepEqual([fee.gross, fee.fee, fee.net, fee.available_on], ['0.00', '1.46', '-1.46', payout.period]);

      const csv = await paykit.payouts.exportPayout(m.merchantKey, payout.payout_id);
      const lines = csv.trimEnd().split('\r\n');
      assert.equal(lines[0], 'Type,Gross,Fee,Net,Transaction ID,Order ID,Created (UTC),Available on,Payout ID');
      assert.equal(lines.length, 8);
      assert.equal(
        lines.slice(1).reduce((sum, line) => sum + Math.round(Number(line.split(',')[3]) * 100), 0),
        6692,
        'the CSV adds up to the payout',
      );
      assert.match(csv, new RegExp(`^fee,0\\.00,1\\.46,-1\\.46,${first},`, 'm'));

      assert.deepEqual(await paykit.sandbox.runPayouts(m.merchantKey), {
        created: 0,
        in_transit: 1,
        paid: 0,
        failed: 0,
      });
      assert.equal((await paykit.payouts.get(m.merchantKey, payout.payout_id)).status, 'in_transit');
      await toNext(MONDAY, 9);
      const paid = await paykit.payouts.get(m.merchantKey, payout.payout_id);
      assert.equal(paid.status, 'paid');
      assert.equal(paid.arrival_date, service.clock.now().toISOString().slice(0, 10));
      assert.equal((await eventsAbout(service, 'payout.created', payout.payout_id)).length, 1);
      const [paidEvent] = await eventsAbout(service, 'payout.paid', payout.payout_id);
      assert.deepEqual(paidEvent?.data, {
        merchant_id: m.merchantId,
        payout_id: payout.payout_id,
        amount: 66.92,
        currency: 'USD',
        status: 'paid',
        arrival_date: paid.arrival_date,
        bank_last_four: '6789',
        entry_count: 7,
        created_at: payout.created_date,
        failure_code: null,
        failure_message: null,
      });
      await m.check();
    });

    test('a payout to the failing test account fails on arrival: its money is available again, payouts pause until the account changes', async () => {
      const m = await merchant();
      await paykit.payouts.updateSettings({
        merchant_key: m.merchantKey,
        routing_number: '110000000',
        account_number: '000111111116',
      });
      await toNext(MONDAY, 10);
      await paidSale(service, m.merchantKey, '100.00');
      await toNext(FRIDAY, 1);
      const [payout] = (await paykit.payouts.list(m.merchantKey)).items;
      assert.equal(payout?.amount, '96.80');
      assert.equal(payout.bank_last_four, '1116');
      await paykit.sandbox.runPayouts(m.merchantKey);
      await toNext(MONDAY, 1);
      const failed = await paykit.payouts.get(m.merchantKey, payout.payout_id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.failure_code, 'account_closed');
      assert.equal((await eventsAbout(service, 'payout.failed', payout.payout_id)).length, 1);
      assert.deepEqual(
        await paykit.payouts.balance(m.merchantKey),
        { currency: 'USD', available: '96.80', pending: '0.00' },
        'the money is back',
      );
      assert.equal(
        (await paykit.payouts.entries(m.merchantKey, payout.payout_id)).items.length,
        0,
        'its entries went back to the balance',
      );
      assert.equal((await paykit.payouts.settings(m.merchantKey)).paused, true);
      await m.check();

      await paykit.sandbox.advanceClock(24);
      assert.equal((await paykit.payouts.list(m.merchantKey)).items.length, 1, 'no payout while paused');
      const changed = await paykit.payouts.updateSettings({
        merchant_key: m.merchantKey,
        routing_number: '110000000',
        account_number: '000123454321',
      });
      assert.deepEqual([changed.paused, changed.bank_last_four], [false, '4321']);
      await paykit.sandbox.runPayouts(m.merchantKey);
      const [again] = (await paykit.payouts.list(m.merchantKey)).items;
      assert.deepEqual(
        [again?.amount, again?.bank_last_four, again?.entry_count],
        ['96.80', '4321', 2],
        'the same entries go out in the next payout',
      );
      await m.check();
    });

    test('a negative balance makes no payout and is carried forward into the next', async () => {
      const m = await merchant();
      await toNext(MONDAY, 10);
      const sale = await paidSale(service, m.merchantKey, '20.00');
      await toNext(FRIDAY, 1);
      const [first] = (await paykit.payouts.list(m.merchantKey)).items;
      assert.equal(first?.amount, '19.12');
      await paykit.transactions.refund({ merchant_key: m.merchantKey, transaction_id: sale, amount: '20.00' });
      assert.deepEqual(await paykit.payouts.balance(m.merchantKey), {
        currency: 'USD',
        available: '-20.00',
        pending: '0.00',
      });
      await toNext(MONDAY, 10);
      assert.equal(
        (await paykit.payouts.list(m.merchantKey)).items.filter((p) => p.period !== null).length,
        1,
        'no payout of a negative balance',
      );
      await m.check();
      await paidSale(service, m.merchantKey, '50.00');
      await toNext(FRIDAY, 1);
      const [second] = (await paykit.payouts.list(m.merchantKey)).items;
      // 50.00 − 1.75 fee − 20.00 carried forward.
      assert.equal(second?.amount, '28.25');
      await m.check();
    });

    test('ACH: pending until its bank approves, available that day; a declined one and its return cancel out', async () => {
      const m = await merchant();
      await toNext(MONDAY, 10);
      const ach = async (amount: string) => {
        const { pay_link } = await paykit.payments.request({
          merchant_key: m.merchantKey,
          amount,
          order_id: nextOrderId(),
        });
        return (
          await paykit.sandbox.pay({
            pay_link,
            method: 'ach',
            routing_number: '110000000',
            account_number: '000123456789',
          })
        ).transaction_id;
      };
      const approved = await ach('200.00');
      const declined = await ach('30.00');
      assert.deepEqual(await paykit.payouts.balance(m.merchantKey), {
        currency: 'USD',
        available: '0.00',
        pending: '228.16',
      });
      await paykit.sandbox.updateAch({ merchant_key: m.merchantKey, transaction_id: approved, new_status: 'approved' });
      await paykit.sandbox.updateAch({ merchant_key: m.merchantKey, transaction_id: declined, new_status: 'declined' });
      assert.deepEqual(await paykit.payouts.balance(m.merchantKey), {
        currency: 'USD',
        available: '198.40',
        pending: '0.00',
      });
      await m.check();
      await paykit.sandbox.runPayouts(m.merchantKey);
      const [payout] = (await paykit.payouts.list(m.merchantKey)).items;
      assert.deepEqual([payout?.amount, payout?.entry_count], ['198.40', 6]);
      const types = (await paykit.payouts.entries(m.merchantKey, payout!.payout_id).toArray())
        .map((e) => e.type)
        .sort();
      assert.deepEqual(types, ['ach_return', 'fee', 'fee', 'fee_refund', 'sale', 'sale']);
      await m.check();
    });

    test("voids give the fee back; a capture is a sale; a sale's money and payout show in its details", async () => {
      const m = await merchant();
      await toNext(MONDAY, 10);
      const voided = await paidSale(service, m.merchantKey, '60.00');
      await paykit.transactions.void({ merchant_key: m.merchantKey, transaction_id: voided });
      const { pay_link } = await paykit.payments.request({
        merchant_key: m.merchantKey,
        amount: '80.00',
        order_id: nextOrderId(),
        preauth: true,
      });
      const hold = (await paykit.sandbox.pay({ pay_link, method: 'card', ...TEST_CARD })).transaction_id;
      assert.deepEqual(
        await paykit.payouts.balance(m.merchantKey),
        { currency: 'USD', available: '0.00', pending: '0.00' },
        'a hold moves no money',
      );
      const captured = await paykit.preauth.capture({ merchant_key: m.merchantKey, transaction_id: hold });
      assert.deepEqual(await paykit.payouts.balance(m.merchantKey), {
        currency: 'USD',
        available: '0.00',
        pending: '77.38',
      });
      await m.check();
      await toNext(FRIDAY, 1);
      const [payout] = (await paykit.payouts.list(m.merchantKey)).items;
      assert.deepEqual(
        [payout?.amount, payout?.entry_count],
        ['77.38', 6],
        'the void and its fee back net the voided sale to nothing',
      );
      const session = await paykit.widgets.createSession(m.merchantKey);
      const details = await service.api('GET', `/widgets/transactions/${captured.transaction_id}`, {
        auth: null,
        headers: { authorization: `Bearer ${session.session_token}` },
      });
      assert.equal(details.status, 200);
      assert.deepEqual(details.body.data.money, {
        fee_amount: '2.62',
        payout: { payout_id: payout!.payout_id, status: 'pending', arrival_date: payout!.arrival_date },
      });
      await m.check();
    });

    test('schedules: weekly on its anchor day, manual by POST /payouts; refusals say what to do', async () => {
      const weekly = await merchant();
      const manual = await merchant();
      await paykit.payouts.updateSettings({
        merchant_key: weekly.merchantKey,
        interval: 'weekly',
        weekly_anchor: 'monday',
      });
      await paykit.payouts.updateSettings({ merchant_key: manual.merchantKey, interval: 'manual' });
      await toNext(MONDAY, 10);
      await paidSale(service, weekly.merchantKey, '10.00');
      await paidSale(service, manual.merchantKey, '10.00');
      await toNext(FRIDAY, 1);
      assert.equal((await paykit.payouts.list(weekly.merchantKey)).items.length, 0, 'not on a Friday');
      assert.equal((await paykit.payouts.list(manual.merchantKey)).items.length, 0, 'never by itself');
      await assert.rejects(
        paykit.payouts.create(weekly.merchantKey),
        (e: Error & { code?: string }) => e.code === 'conflict' && e.message === PAYOUT_PROBLEMS.notManual,
      );
      const made = await paykit.payouts.create(manual.merchantKey, { idempotencyKey: `manual-${manual.merchantId}` });
      assert.deepEqual([made.amount, made.period, made.status], ['9.41', null, 'pending']);
      const replayed = await paykit.payouts.create(manual.merchantKey, {
        idempotencyKey: `manual-${manual.merchantId}`,
      });
      assert.equal(replayed.payout_id, made.payout_id, 'an Idempotency-Key replays the payout');
      await assert.rejects(
        paykit.payouts.create(manual.merchantKey),
        (e: Error & { code?: string }) => e.code === 'conflict' && e.message === PAYOUT_PROBLEMS.nothingAvailable(0),
      );
      await toNext(MONDAY, 1);
      const [payout] = (await paykit.payouts.list(weekly.merchantKey)).items;
      assert.deepEqual([payout?.amount, payout?.period], ['9.41', service.clock.now().toISOString().slice(0, 10)]);
      await weekly.check();
      await manual.check();
    });

    test('the console reads the balance, the payouts and their entries with a session that grants payouts, and nothing without', async () => {
      const m = await merchant();
      const other = await merchant();
      await toNext(MONDAY, 10);
      await paidSale(service, m.merchantKey, '30.00');
      await paidSale(service, other.merchantKey, '30.00');
      await toNext(FRIDAY, 1);
      const [payout] = (await paykit.payouts.list(m.merchantKey)).items;
      const [theirs] = (await paykit.payouts.list(other.merchantKey)).items;
      const bearer = (token: string) => ({ auth: null, headers: { authorization: `Bearer ${token}` } });
      const readOnly = await paykit.widgets.createSession(m.merchantKey, { features: { export: true } });
      const granted = await paykit.widgets.createSession(m.merchantKey, { features: { payouts: true } });
      assert.equal(granted.features.payouts, true);

      const refused = await service.api('GET', '/widgets/payouts', bearer(readOnly.session_token));
      assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden']);
      assert.match(refused.body.message, /features\.payouts/);
      const anonymous = await service.api('GET', '/widgets/payouts', { auth: null });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer');

      const listed = await service.api('GET', '/widgets/payouts?perPage=5', bearer(granted.session_token));
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body.data.balance, { currency: 'USD', available: '0.00', pending: '0.00' });
      assert.deepEqual(
        listed.body.data.items.map((p: { payout_id: string }) => p.payout_id),
        [payout!.payout_id],
      );
      const entries = await service.api(
        'GET',
        `/widgets/payouts/${payout!.payout_id}/entries`,
        bearer(granted.session_token),
      );
      assert.deepEqual(entries.body.data.items.map((e: { net: string }) => e.net).sort(), ['-1.17', '30.00']);
      const csv = await service.api(
        'GET',
        `/widgets/payouts/${payout!.payout_id}/entries.csv?lang=fr`,
        bearer(granted.session_token),
      );
      assert.equal(csv.status, 200);
      assert.match(csv.text, /^Type,Brut,Frais,Net,/);
      const notTheirs = await service.api(
        'GET',
        `/widgets/payouts/${theirs!.payout_id}/entries`,
        bearer(granted.session_token),
      );
      assert.equal(notTheirs.status, 404, "another merchant's payout is not found");
    });

    test('bad input changes nothing and says what to send; another client sees no payout of this one', async () => {
      const m = await merchant();
      const refused = async (method: string, path: string, body: unknown, code: string, message: RegExp) => {
        const answer =
          method === 'GET'
            ? await service.api(method, `${path}?${new URLSearchParams(body as Record<string, string>)}`)
            : await service.api(method, path, { json: body });
        assert.equal(answer.body.code, code, `${method} ${path}: ${JSON.stringify(answer.body)}`);
        assert.match(answer.body.message, message);
      };
      await refused(
        'PUT',
        '/payouts/settings',
        { merchant_key: m.merchantKey, interval: 'hourly' },
        'invalid_request',
        /interval/,
      );
      await refused(
        'PUT',
        '/payouts/settings',
        { merchant_key: m.merchantKey, account_number: '000123456789' },
        'invalid_request',
        /routing_number/,
      );
      await refused(
        'PUT',
        '/payouts/settings',
        { merchant_key: m.merchantKey, routing_number: '110000000', account_number: '12' },
        'invalid_request',
        /account_number/,
      );
      await refused('GET', '/balance', { merchant_key: 'mk_nobody' }, 'not_found', /merchant_key/);
      await refused('GET', '/payouts/po_nothing', { merchant_key: m.merchantKey }, 'not_found', /No payout/);
      await refused(
        'GET',
        '/payouts',
        { merchant_key: m.merchantKey, cursor: 'nonsense!' },
        'invalid_request',
        /cursor/,
      );
      await refused(
        'GET',
        '/balance/entries.csv',
        { merchant_key: m.merchantKey, from_date: '2026-02-30', to_date: '2026-03-01' },
        'invalid_request',
        /from_date/,
      );
      assert.deepEqual((await paykit.payouts.settings(m.merchantKey)).interval, 'daily', 'nothing changed');

      await toNext(MONDAY, 10);
      await paidSale(service, m.merchantKey, '10.00');
      await toNext(FRIDAY, 1);
      const [payout] = (await paykit.payouts.list(m.merchantKey)).items;
      const other = await service.newClient('Another partner');
      const theirs = await service.api('GET', `/payouts/${payout!.payout_id}?merchant_key=${m.merchantKey}`, {
        auth: { id: other.clientId, secret: other.secretKey },
      });
      assert.equal(theirs.status, 404);
      const day = service.clock.now().toISOString().slice(0, 10);
      const range = await paykit.payouts.exportEntries(m.merchantKey, { from_date: '2020-01-01', to_date: day });
      assert.equal(range.trimEnd().split('\r\n').length, 3, 'the range CSV: the header, the sale and its fee');
    });
  });
}
