import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { validApplication } from '../../support/fixtures.ts';
import { newOnboardingLink, formBody } from '../../support/onboarding.ts';
import { Receiver } from '../../support/receiver.ts';
import { run, startServiceProcess } from '../../support/process.ts';
import { send } from '../../support/http.ts';
import { nextOrderId } from '../../support/payments.ts';
import { createOperator } from '../../../server/services/merchant-review.ts';
import { registerWebhookUrl } from '../../../server/services/webhooks.ts';
import { OPERATOR_CREDENTIALS_MESSAGE } from '../../../server/plugins/operator-auth.ts';

const STATUS_FIELDS = ['business_name', 'changed_at', 'company_id', 'email', 'merchant_id', 'reason', 'status'];

for (const database of testDatabases()) {
  describe(`the production review of applications (${database})`, () => {
    let service: TestService;
    let receiver: Receiver;
    let operatorToken: string;
    before(async () => {
      service = await startService({
        database,
        environment: 'production',
        webhooks: { timeoutMs: 2000, allowPrivate: true },
      });
      receiver = await new Receiver().start();
      await registerWebhookUrl(service.store, service.client.clientId, receiver.url, service.clock.now(), true);
      operatorToken = (await createOperator(service.store, 'Review desk', service.clock.now())).token;
    });
    after(async () => {
      await service.close();
      await receiver.stop();
    });

    const operator = (method: string, path: string, json?: unknown, token = operatorToken) =>
      service.request(method, `/operator/v1${path}`, { json, headers: { authorization: `Bearer ${token}` } });
    const status = async (merchantKey: string) =>
      (await service.api('POST', '/auth/get-onboarding-status', { json: { merchant_key: merchantKey } })).body.data;
    const statusEvents = (merchantId: string) =>
      receiver.receipts.filter(
        (r) => r.event.event_type === 'merchant_status' && r.event.data.merchant_id === merchantId,
      );

    test('apply, review, approve, pay: audited and announced by webhook', async () => {
      const applied = (
        await service.api('POST', '/onboarding', {
          json: validApplication({ BusinessInfo: { business_name: 'Approved Ltd' } }),
        })
      ).body.data;
      await receiver.waitFor(() => statusEvents(applied.merchant_id).length === 1);
      const [submitted] = statusEvents(applied.merchant_id);
      assert.deepEqual(Object.keys(submitted!.event.data).sort(), STATUS_FIELDS);
      assert.deepEqual([submitted!.event.data.status, submitted!.event.data.reason], ['pending', '']);
      assert.deepEqual(await status(applied.merchant_key), { merchantStatus: 'pending' });
      const refused = await service.api('POST', '/requests', {
        json: { merchant_key: applied.merchant_key, amount: '5.00', order_id: nextOrderId() },
      });
      assert.equal(refused.status, 409, 'no payments before the review');

      const queue = await operator('GET', '/merchants');
      assert.equal(queue.status, 200, queue.text);
      assert.ok(
        queue.body.data.items.some(
          (m: { merchant_id: string; status: string }) =>
            m.merchant_id === applied.merchant_id && m.status === 'pending',
        ),
      );
      const approved = await operator('POST', `/merchants/${applied.merchant_id}/approve`, { note: 'KYC checked' });
      assert.equal(approved.status, 200, approved.text);
      assert.equal(approved.body.data.status, 'completed');

      assert.deepEqual(await status(applied.merchant_key), { merchantStatus: 'completed' });
      await receiver.waitFor(() => statusEvents(applied.merchant_id).length === 2);
      assert.deepEqual(
        [
          statusEvents(applied.merchant_id)[1]!.event.data.status,
          statusEvents(applied.merchant_id)[1]!.event.data.reason,
        ],
        ['completed', ''],
      );
      await receiver.waitForEvent('merchant.approval', applied.merchant_id);
      const paid = await service.api('POST', '/requests', {
        json: { merchant_key: applied.merchant_key, amount: '5.00', order_id: nextOrderId() },
      });
      assert.equal(paid.status, 200, paid.text);

      const audited = await operator('GET', `/merchants/${applied.merchant_key}`);
      assert.equal(audited.body.data.merchant_id, applied.merchant_id, 'found by its merchant key too');
      assert.deepEqual(
        audited.body.data.reviews.map((r: { decision: string; reason: string; reviewer: string }) => [
          r.decision,
          r.reason,
          r.reviewer,
        ]),
        [['approved', 'KYC checked', 'Review desk']],
      );
      assert.ok(
        !JSON.stringify(audited.body.data.application).includes('123-45-6789'),
        'no SSN in the stored application',
      );
      const twice = await operator('POST', `/merchants/${applied.merchant_id}/decline`, { reason: 'too late' });
      assert.deepEqual([twice.status, twice.body.code], [409, 'conflict']);
    });

    test('apply, decline with a reason the partner reads; a declined merchant takes no payment and is not reviewed again', async () => {
      const applied = (
        await service.api('POST', '/onboarding', {
          json: validApplication({ BusinessInfo: { business_name: 'Declined Ltd' } }),
        })
      ).body.data;
      const noReason = await operator('POST', `/merchants/${applied.merchant_id}/decline`, { reason: ' ' });
      assert.deepEqual(
        [noReason.status, noReason.body.message],
        [400, 'A decline needs a reason the partner can pass on to the merchant.'],
      );
      const declined = await operator('POST', `/merchants/${applied.merchant_id}/decline`, {
        reason: 'The EIN does not match the business name.',
      });
      assert.equal(declined.status, 200, declined.text);
      assert.deepEqual(await status(applied.merchant_key), {
        merchantStatus: 'declined',
        decline_reason: 'The EIN does not match the business name.',
      });
      await receiver.waitFor(() => statusEvents(applied.merchant_id).some((r) => r.event.data.status === 'declined'));
      const event = statusEvents(applied.merchant_id).find((r) => r.event.data.status === 'declined')!;
      assert.equal(event.event.data.reason, 'The EIN does not match the business name.');
      assert.ok(
        !receiver.receipts.some(
          (r) => r.event.event_type === 'merchant.approval' && r.event.data.merchant_id === applied.merchant_id,
        ),
      );
      const refused = await service.api('POST', '/requests', {
        json: { merchant_key: applied.merchant_key, amount: '5.00', order_id: nextOrderId() },
      });
      assert.equal(refused.status, 409);
      const again = await operator('POST', `/merchants/${applied.merchant_id}/approve`, {});
      assert.deepEqual(
        [again.status, again.body.message],
        [409, `Merchant ${applied.merchant_id} was declined; a declined application is not reviewed again.`],
      );
      const declinedList = await operator('GET', '/merchants?status=declined');
      assert.ok(
        declinedList.body.data.items.some(
          (m: { merchant_id: string; decline_reason: string }) =>
            m.merchant_id === applied.merchant_id && m.decline_reason.startsWith('The EIN'),
        ),
      );
    });

    test('a merchant still filling in the hosted form cannot be reviewed; submitting it announces pending', async () => {
      const { path, merchantId } = await newOnboardingLink(service);
      const early = await operator('POST', `/merchants/${merchantId}/approve`, {});
      assert.deepEqual([early.status, early.body.code], [409, 'conflict']);
      assert.equal((await service.request('POST', path, { form: formBody(validApplication()) })).status, 200);
      await receiver.waitFor(() => statusEvents(merchantId).some((r) => r.event.data.status === 'pending'));
      assert.equal((await operator('POST', `/merchants/${merchantId}/approve`, {})).status, 200);
    });

    test('only operators: no token, a wrong one, or a partner’s credentials get 401; unknown merchants 404; the sandbox approval is refused', async () => {
      const partnerBasic = `Basic ${Buffer.from(`${service.client.clientId}:${service.client.secretKey}`).toString('base64')}`;
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer op_wrong' },
        { authorization: partnerBasic },
      ];
      for (const headers of attempts) {
        const answer = await service.request('GET', '/operator/v1/merchants', { headers });
        assert.deepEqual(
          [answer.status, answer.body.message, answer.body.code],
          [401, OPERATOR_CREDENTIALS_MESSAGE, 'authentication_failed'],
        );
      }
      const unknown = await operator('GET', '/merchants/m_nope');
      assert.deepEqual([unknown.status, unknown.body.code], [404, 'not_found']);
      const sandboxOnly = await service.api('POST', '/approve-merchant', { json: { merchant_id: 'm_any' } });
      assert.equal(sandboxOnly.status, 403);
    });
  });
}

describe('the operator CLI against a production service', () => {
  test('credentials, list, approve and decline, seen by the partner through the running service', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-operator-'));
    const env = {
      PAYKIT_DATA_DIR: dir,
      PAYKIT_ENV: 'production',
      PAYKIT_CLIENT_ID: 'review_partner',
      PAYKIT_CLIENT_SECRET: 'review-secret-0123456789',
    };
    const service = await startServiceProcess(env);
    t.after(async () => {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    const auth = { id: env.PAYKIT_CLIENT_ID, secret: env.PAYKIT_CLIENT_SECRET };
    const apply = async () =>
      (await send(service.baseUrl, 'POST', '/api/v1/onboarding', { json: validApplication(), auth })).body.data;
    const cli = (...args: string[]) => run(['server/cli/operator.ts', ...args, '--json'], env);
    const [first, second] = [await apply(), await apply()];

    const listed = await cli('merchants', 'list');
    assert.equal(listed.code, 0, listed.output);
    assert.deepEqual(
      JSON.parse(listed.output.trim().split('\n').at(-1)!)
        .map((m: { merchant_id: string }) => m.merchant_id)
        .sort(),
      [first.merchant_id, second.merchant_id].sort(),
    );
    assert.equal((await cli('merchants', 'approve', first.merchant_key, '--as', 'Ada')).code, 0);
    const declined = await cli('merchants', 'decline', second.merchant_id, '--reason', 'Prohibited business');
    assert.equal(declined.code, 0, declined.output);
    const status = async (merchantKey: string) =>
      (
        await send(service.baseUrl, 'POST', '/api/v1/auth/get-onboarding-status', {
          json: { merchant_key: merchantKey },
          auth,
        })
      ).body.data;
    assert.deepEqual(await status(first.merchant_key), { merchantStatus: 'completed' });
    assert.deepEqual(await status(second.merchant_key), {
      merchantStatus: 'declined',
      decline_reason: 'Prohibited business',
    });
    const noReason = await cli('merchants', 'decline', first.merchant_id);
    assert.equal(noReason.code, 1);
    assert.match(noReason.output, /operator: Merchant .* is already approved\./);

    const made = await cli('credentials', 'create', '--name', 'Night shift');
    const { token } = JSON.parse(made.output.trim().split('\n').at(-1)!);
    const shown = await send(service.baseUrl, 'GET', `/operator/v1/merchants/${first.merchant_id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.deepEqual(
      shown.body.data.reviews.map((r: { reviewer: string; decision: string }) => [r.reviewer, r.decision]),
      [['Ada', 'approved']],
    );
  });
});
