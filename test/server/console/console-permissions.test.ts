import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant } from '../../support/payments.ts';
import { testDatabases } from '../../support/databases.ts';
import { consoleCall, consoleSession, payment, type Features } from '../../support/console.ts';

/** Every action of the console with and without its feature: 403 `forbidden` and nothing changed, or done. */
for (const database of testDatabases()) {
  describe(`the console's permissions (${database})`, () => {
    let service: TestService;
    let merchantKey: string;
    let merchantId: string;
    before(async () => {
      service = await startService({ database });
      ({ merchantKey, merchantId } = await approvedMerchant(service));
    });
    after(() => service.close());

    /** The transaction as stored, and how many events and messages the outboxes hold. */
    const snapshot = async (id: string) => ({
      transaction: await service.store.transactions.find(merchantId, id),
      events: (await service.store.events.listForClient(service.client.clientId)).length,
      messages: (await service.store.messages.newestFirst(service.client.clientId, 1000)).length,
    });

    test('a session answers its id and the seven features; none asked is read-only, and only true grants', async () => {
      const none = await consoleSession(service, merchantKey);
      assert.match(none.session_id, /^wss_/);
      assert.deepEqual(none.features, {
        refunds: false,
        voids: false,
        captures: false,
        export: false,
        receipts: false,
        payouts: false,
        disputes: false,
      });
      const some = await consoleSession(service, merchantKey, { refunds: true, export: false });
      assert.deepEqual(some.features, {
        refunds: true,
        voids: false,
        captures: false,
        export: false,
        receipts: false,
        payouts: false,
        disputes: false,
      });
      const bad = await service.api('POST', '/widgets/sessions', {
        json: { merchant_key: merchantKey, features: { delete_everything: true } },
      });
      assert.equal(bad.status, 400, bad.text);
      const notBoolean = await service.api('POST', '/widgets/sessions', {
        json: { merchant_key: merchantKey, features: { refunds: 'yes' } },
      });
      assert.equal(notBoolean.status, 400, notBoolean.text);
    });

    const ACTIONS: {
      name: string;
      feature: keyof Features;
      path: (id: string) => string;
      body?: unknown;
      hold?: boolean;
    }[] = [
      { name: 'refund in part', feature: 'refunds', path: (id) => `/${id}/refund`, body: { amount: '5.00' } },
      { name: 'refund in full', feature: 'refunds', path: (id) => `/${id}/refund`, body: {} },
      { name: 'void', feature: 'voids', path: (id) => `/${id}/void` },
      { name: 'undo (a void)', feature: 'voids', path: (id) => `/${id}/undo` },
      { name: 'capture', feature: 'captures', path: (id) => `/${id}/capture`, body: {}, hold: true },
      {
        name: 'capture of less',
        feature: 'captures',
        path: (id) => `/${id}/capture`,
        body: { amount: '20.00' },
        hold: true,
      },
      { name: 'release', feature: 'captures', path: (id) => `/${id}/release`, hold: true },
      {
        name: 'change a hold',
        feature: 'captures',
        path: (id) => `/${id}/adjust`,
        body: { amount: '35.00' },
        hold: true,
      },
      { name: 'resend the receipt', feature: 'receipts', path: (id) => `/${id}/receipt` },
    ];

    for (const [index, action] of ACTIONS.entries()) {
      test(`${action.name}: 403 forbidden without ${action.feature}, nothing changed; done with it`, async () => {
        // A phone of its own: one phone gets at most five messages an hour from a merchant, receipts sent again included.
        const id = await payment(service, merchantKey, '30.00', {
          preauth: action.hold,
          phone: `+1415555${String(100 + index).padStart(4, '0')}`,
        });
        const before = await snapshot(id);
        const everythingElse: Features = {
          refunds: true,
          voids: true,
          captures: true,
          export: true,
          receipts: true,
          [action.feature]: false,
        };
        for (const features of [undefined, everythingElse]) {
          const { session_token } = await consoleSession(service, merchantKey, features);
          const refused = await consoleCall(service, session_token)('POST', action.path(id), action.body);
          assert.equal(refused.status, 403, refused.text);
          assert.equal(refused.body.result, false);
          assert.equal(refused.body.code, 'forbidden');
          assert.match(refused.body.message, new RegExp(`features\\.${action.feature}`));
          assert.deepEqual(await snapshot(id), before, 'nothing changed');
        }
        const { session_token, session_id } = await consoleSession(service, merchantKey, { [action.feature]: true });
        const done = await consoleCall(service, session_token)('POST', action.path(id), action.body);
        assert.equal(done.status, 200, done.text);
        assert.equal(done.body.data.transaction_id, id);
        assert.notDeepEqual(await snapshot(id), before);
        // A release and a receipt write no event; every other action's events name the session.
        if (action.name !== 'release' && action.name !== 'resend the receipt') {
          const events = await service.store.events.listForClient(service.client.clientId);
          assert.ok(
            events.some((e) => e.data.widget_session_id === session_id),
            `an event of ${action.name} names the session`,
          );
        }
      });
    }

    test('undo after settlement refunds, and then needs refunds, not voids', async () => {
      const id = await payment(service, merchantKey, '40.00');
      await service.api('POST', '/sandbox/settle', { json: { merchant_key: merchantKey } });
      const onlyVoids = await consoleSession(service, merchantKey, { voids: true });
      const refused = await consoleCall(service, onlyVoids.session_token)('POST', `/${id}/undo`);
      assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden'], refused.text);
      const refunds = await consoleSession(service, merchantKey, { refunds: true });
      const done = await consoleCall(service, refunds.session_token)('POST', `/${id}/undo`);
      assert.equal(done.status, 200, done.text);
      assert.equal(done.body.data.undone_as, 'refund');
      assert.equal(done.body.data.refunded_amount, '40.00');
      assert.equal(done.body.data.refundable_amount, '0.00');
    });

    test('reads need no feature; a missing or wrong token is 401 with WWW-Authenticate', async () => {
      const id = await payment(service, merchantKey, '12.00');
      const { session_token } = await consoleSession(service, merchantKey);
      const call = consoleCall(service, session_token);
      assert.equal((await call('GET', '')).status, 200);
      assert.equal((await call('GET', `/${id}`)).status, 200);
      const anonymous = await service.request('POST', `/api/v1/widgets/transactions/${id}/void`);
      assert.equal(anonymous.status, 401, anonymous.text);
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer');
      const wrong = await consoleCall(service, 'wst_not-a-token')('POST', `/${id}/refund`, {});
      assert.equal(wrong.status, 401);
    });

    test("another merchant's transaction is not found, even with every feature", async () => {
      const other = await approvedMerchant(service);
      const theirs = await payment(service, other.merchantKey, '15.00');
      const { session_token } = await consoleSession(service, merchantKey, {
        refunds: true,
        voids: true,
        captures: true,
      });
      const call = consoleCall(service, session_token);
      for (const [method, path] of [
        ['GET', `/${theirs}`],
        ['POST', `/${theirs}/refund`],
        ['POST', `/${theirs}/void`],
        ['POST', `/${theirs}/undo`],
        ['POST', `/${theirs}/capture`],
      ] as const) {
        const answer = await call(method, path, method === 'POST' ? {} : undefined);
        assert.equal(answer.status, 404, `${method} ${path}: ${answer.text}`);
        assert.equal(answer.body.code, 'not_found');
      }
    });
  });
}
