import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startService, type TestService } from '../support/service.ts';
import { approvedMerchant, paidSale, partnerClient } from '../support/payments.ts';
import * as paykitClient from '../../src/client/index.ts';
import { REFUND_ERRORS } from '../../server/domain/refunds.ts';

/** The fenced code block of docs/client.md under `heading`, as written there. */
function example(heading: string): string {
  const text = readFileSync(new URL('../../docs/client.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf(`## ${heading}\n`));
  return /```ts\n([\s\S]*?)```/.exec(section)![1]!;
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...names: string[]) => (...values: unknown[]) => Promise<unknown>;

let service: TestService;
before(async () => (service = await startService()));
after(() => service.close());

test("docs/client.md's error example runs as written: each refusal reaches its branch, with the service's message", async () => {
  const { merchantKey } = await approvedMerchant(service);
  const code = example('Errors');
  const run = new AsyncFunction('paykit', 'merchant_key', 'transaction_id', 'PaykitInvalidRequestError', 'PaykitConflictError', 'console', code);
  const paykit = partnerClient(service);
  const said: string[] = [];
  const console = { log: (line: string) => said.push(line) };
  const classes = [paykitClient.PaykitInvalidRequestError, paykitClient.PaykitConflictError];

  // A $10.00 sale with $7.00 refunded: 5.00 is more than is left to refund.
  const partly = await paidSale(service, merchantKey, '10.00');
  await paykit.transactions.refund({ merchant_key: merchantKey, transaction_id: partly, amount: '7.00' });
  await run(paykit, merchantKey, partly, ...classes, console);
  // A sale refunded in full already.
  const refunded = await paidSale(service, merchantKey, '5.00');
  await paykit.transactions.refund({ merchant_key: merchantKey, transaction_id: refunded, amount: '5.00' });
  await run(paykit, merchantKey, refunded, ...classes, console);
  assert.deepEqual(said, [REFUND_ERRORS.overRemaining, REFUND_ERRORS.alreadyRefunded]);
  // Anything else is thrown on.
  await assert.rejects(run(paykit, 'mk_unknown', refunded, ...classes, console), paykitClient.PaykitNotFoundError);
});
