import type { FastifyRequest } from 'fastify';
import { receiptChange } from '../services/receipts.ts';
import { apply } from '../services/guarded.ts';
import type { Change } from '../store/changes.ts';

/**
 * The shopper's receipt of a payment, refund or void just written, through the request's unit. The change stands
 * whatever happens to its receipt, so a failure to send one is logged (ids only), not answered; the merchant can
 * send it again from the console.
 */
export async function sendShopperReceipt(
  request: FastifyRequest,
  merchantId: string,
  transactionId: string,
  options: { now: Date; publicUrl: string; language?: string | undefined },
): Promise<void> {
  try {
    const change = await receiptChange(request.unit.store, merchantId, transactionId, options);
    if (change) await request.unit.write(change);
  } catch (error) {
    request.log.error({ err: error, merchantId, transactionId }, 'The receipt could not be sent.');
  }
}

/**
 * A charge's change and its receipt in one unit of the request (a captured hold, a stored customer's charge, a returned
 * bank payment): the message rows commit with the money, or neither does. With nobody to reach (as the decision read),
 * the change alone, as one write; nothing more when receipts are off.
 */
export function writeWithReceipt<A>(
  request: FastifyRequest,
  { change, shopperReachable }: { change: Change; shopperReachable: boolean },
  answer: A,
  merchantId: string,
  transactionId: string,
  options: { now: Date; publicUrl: string },
): Promise<A> {
  if (!shopperReachable) return request.unit.write(change, answer);
  return request.unit.transaction(async (tx) => {
    await apply(tx, change);
    const receipt = await receiptChange(tx, merchantId, transactionId, options);
    if (receipt) await tx.write(receipt);
    return answer;
  });
}
