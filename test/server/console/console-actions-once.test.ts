/**
 * Every write the console makes happens once (issue 41): an action retried with its Idempotency-Key is replayed, as
 * the partner API's are, and a capture of a new amount is one change (a refused one leaves the hold and its events as
 * they were).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant, eventsAbout } from '../../support/payments.ts';
import { testDatabases } from '../../support/databases.ts';
import { consoleSession, payment } from '../../support/console.ts';
import { consoleCapture, type ConsoleActor } from '../../../server/services/console.ts';

for (const database of testDatabases()) {
  describe(`console actions happen once (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    let token: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
      token = (
        await consoleSession(service, merchantKey, { refunds: true, voids: true, captures: true, receipts: true })
      ).session_token;
    });
    after(() => service.close());

    const details = async (id: string) =>
      (
        await service.request('GET', `/api/v1/widgets/transactions/${id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).body.data;
    const act = (id: string, action: string, body: unknown, key?: string, session = token) =>
      service.request('POST', `/api/v1/widgets/transactions/${id}/${action}`, {
        json: body,
        headers: { authorization: `Bearer ${session}`, ...(key ? { 'idempotency-key': key } : {}) },
      });

    test('a partial refund retried with its key refunds once: the retry is the first answer, replayed', async () => {
      const sale = await payment(service, merchantKey, '50.00');
      const key = randomUUID();
      const first = await act(sale, 'refund', { amount: '5.00' }, key);
      assert.equal(first.status, 200, first.text);
      const retried = await act(sale, 'refund', { amount: '5.00' }, key);
      assert.deepEqual(
        [retried.status, retried.headers['idempotent-replayed'], retried.text],
        [200, 'true', first.text],
      );
      assert.equal((await details(sale)).refunded_amount, '5.00');
      // Another amount under the same key is another request: refused, nothing done.
      const other = await act(sale, 'refund', { amount: '6.00' }, key);
      assert.deepEqual([other.status, other.body.code], [422, 'idempotency_key_reused']);
      assert.equal((await details(sale)).refunded_amount, '5.00');
    });

    test('ten identical keyed refunds at once: one refund', async () => {
      const sale = await payment(service, merchantKey, '50.00');
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 10 }, () => act(sale, 'refund', { amount: '3.00' }, key)));
      assert.ok(
        answers.every((answer) => answer.status === 200 || (answer.status === 409 && answer.body.code === 'conflict')),
        answers.map((a) => a.text).join('\n'),
      );
      assert.equal((await details(sale)).refunded_amount, '3.00');
    });

    test('every action takes a key: void, undo, capture, adjust, release and a receipt sent again each happen once', async () => {
      const cases: [string, { preauth?: boolean }, unknown][] = [
        ['void', {}, undefined],
        ['undo', {}, undefined],
        ['receipt', {}, undefined],
        ['capture', { preauth: true }, { amount: '20.00' }],
        ['adjust', { preauth: true }, { amount: '35.00' }],
        ['release', { preauth: true }, undefined],
      ];
      for (const [index, [action, kind, body]] of cases.entries()) {
        const id = await payment(service, merchantKey, '30.00', {
          ...kind,
          phone: `+141555502${10 + index}`,
          email: `once-${action}@example.com`,
        });
        const key = randomUUID();
        const eventsBefore = (await service.store.events.listForClient(service.client.clientId)).length;
        const messagesBefore = (await service.store.messages.newestFirst(service.client.clientId, 1000)).length;
        const first = await act(id, action, body, key);
        assert.equal(first.status, 200, `${action}: ${first.text}`);
        const eventsAfter = (await service.store.events.listForClient(service.client.clientId)).length;
        const messagesAfter = (await service.store.messages.newestFirst(service.client.clientId, 1000)).length;
        const retried = await act(id, action, body, key);
        assert.deepEqual(
          [retried.status, retried.headers['idempotent-replayed'], retried.text],
          [200, 'true', first.text],
          action,
        );
        assert.equal(
          (await service.store.events.listForClient(service.client.clientId)).length,
          eventsAfter,
          `${action}: no event twice`,
        );
        assert.equal(
          (await service.store.messages.newestFirst(service.client.clientId, 1000)).length,
          messagesAfter,
          `${action}: no message twice`,
        );
        assert.ok(
          eventsAfter > eventsBefore || messagesAfter > messagesBefore || action === 'release',
          `${action} did something the first time`,
        );
      }
    });

    test("keys are the merchant's: another merchant's console may use the same key", async () => {
      const other = await approvedMerchant(service);
      const otherToken = (await consoleSession(service, other.merchantKey, { refunds: true })).session_token;
      const key = randomUUID();
      const mine = await payment(service, merchantKey, '20.00');
      const theirs = await payment(service, other.merchantKey, '20.00');
      assert.equal((await act(mine, 'refund', { amount: '1.00' }, key)).status, 200);
      const answer = await act(theirs, 'refund', { amount: '1.00' }, key, otherToken);
      assert.deepEqual([answer.status, answer.headers['idempotent-replayed']], [200, undefined], answer.text);
    });

    test('a capture of a new amount whose hold changed after it was decided (it lost a race) writes neither the amount change nor its events', async () => {
      const hold = await payment(service, merchantKey, '50.00', { preauth: true });
      const merchant = (await service.store.merchants.findByIdUnscoped(merchantId))!;
      const actor: ConsoleActor = {
        merchant,
        session: {
          merchantId,
          sessionId: 'wss_test',
          features: {
            refunds: false,
            voids: false,
            captures: true,
            export: false,
            receipts: false,
            payouts: false,
            disputes: false,
          },
        },
      };
      const decided = await consoleCapture(service.store, actor, hold, '40.00', service.clock.now());
      assert.equal((await act(hold, 'adjust', { amount: '45.00' })).status, 200, 'meanwhile the hold changed');
      assert.equal(
        await service.store.write(decided.change),
        false,
        'the capture finds its guard gone and writes nothing',
      );
      assert.equal((await details(hold)).amount, '45.00', 'the hold keeps the amount the other write gave it');
      const changes = [
        ...(await eventsAbout(service, 'preauth.decrement', hold)),
        ...(await eventsAbout(service, 'preauth.increment', hold)),
      ];
      assert.deepEqual(
        changes.map((event) => event.data.amount),
        [45],
        'only the other write announced',
      );
      assert.deepEqual(await eventsAbout(service, 'preauth.charge', hold), []);
      assert.equal(
        (await act(hold, 'capture', { amount: '40.00' })).status,
        200,
        'and it can be captured at that amount after all',
      );
    });

    test('two captures of a hold at two new amounts, eight times over: one captures, and only its amount change is kept and announced', async () => {
      for (let trial = 0; trial < 8; trial++) {
        const hold = await payment(service, merchantKey, '50.00', { preauth: true });
        // The second starts a little later each time, so that some trials land it between the first's change and capture.
        const later = new Promise((resolve) => setTimeout(resolve, trial));
        const [a, b] = await Promise.all([
          act(hold, 'capture', { amount: '40.00' }),
          later.then(() => act(hold, 'capture', { amount: '45.00' })),
        ]);
        const won = [a!, b!].filter((answer) => answer.status === 200);
        assert.equal(won.length, 1, `one capture: ${a!.text} | ${b!.text}`);
        const lost = [a!, b!].find((answer) => answer.status !== 200)!;
        assert.ok(lost.status >= 400 && lost.status < 500, lost.text);
        const captured = won[0]!.body.data.amount as string;
        const changes = [
          ...(await eventsAbout(service, 'preauth.increment', hold)),
          ...(await eventsAbout(service, 'preauth.decrement', hold)),
        ];
        assert.deepEqual(
          changes.map((event) => event.data.amount),
          [Number(captured)],
          `trial ${trial}: the refused capture's change neither kept nor announced`,
        );
        assert.equal((await eventsAbout(service, 'preauth.charge', hold)).length, 1);
        assert.equal((await details(hold)).amount, captured, 'the hold reads the amount captured');
      }
    });
  });
}
