import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { processPartner, startServiceProcess, type ServiceProcess } from '../../support/process.ts';
import { storageEnv } from '../../support/storage-env.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, nextOrderId, partnerClient, TEST_CARD } from '../../support/payments.ts';
import { PaykitError } from '../../../client/index.ts';

/**
 * Two service processes over one PostgreSQL database, one accepting a dispute while the other submits it: the dispute's
 * guard lets one through, the other gets a 409 and nothing of it is written (docs/disputes.md).
 */
const { env: credentials, auth } = processPartner('disputes');

if (testDatabases().includes('postgres'))
  describe('two processes answering one dispute at once (postgres)', () => {
    const processes: ServiceProcess[] = [];
    after(async () => {
      for (const p of processes) await p.stop();
    });

    test('accept in one, submit in the other: one wins, the other is a 409', async () => {
      const { env } = await storageEnv('postgres');
      processes.push(await startServiceProcess({ ...env, ...credentials }));
      processes.push(await startServiceProcess({ ...env, ...credentials }));
      const [one, two] = processes.map((p) => partnerClient(p, auth)) as [
        ReturnType<typeof partnerClient>,
        ReturnType<typeof partnerClient>,
      ];
      const { merchantKey } = await approvedMerchant(processes[0]!, auth);
      for (let round = 0; round < 4; round++) {
        const { pay_link } = await one.payments.request({
          merchant_key: merchantKey,
          amount: '21.00',
          order_id: nextOrderId(),
        });
        const { transaction_id } = await one.sandbox.pay({ pay_link, method: 'card', ...TEST_CARD });
        const { dispute_id } = await one.sandbox.openDispute({ merchant_key: merchantKey, transaction_id });
        await two.disputes.saveEvidence(merchantKey, dispute_id, { explanation: 'delivered' });
        const outcomes = await Promise.allSettled([
          one.disputes.accept(merchantKey, dispute_id, { maxRetries: 0 }),
          two.disputes.submit(merchantKey, dispute_id, { maxRetries: 0 }),
        ]);
        const landed = outcomes.filter((o) => o.status === 'fulfilled');
        assert.equal(landed.length, 1, `round ${round}: exactly one lands`);
        const refused = outcomes.find((o) => o.status === 'rejected')!.reason as PaykitError;
        assert.equal(refused.status, 409, refused.message);
        const final = await one.disputes.get(merchantKey, dispute_id);
        assert.equal(final.status, (landed[0] as PromiseFulfilledResult<{ status: string }>).value.status);
        assert.equal(final.history.length, 2, 'one step after opening, not two');
      }
    });
  });
