import type { FastifyRequest } from 'fastify';
import { receiptChange } from '../services/receipts.ts';

/**
 * The shopper's receipt of a payment, refund or void just written, through the request's unit. The change stands
 * whatever happens to its receipt, so a failure to send one is logged (ids only), not answered; the merchant can
 * send it again from the console.
 */
export async function sendShopperReceipt(
  request: FastifyRequest, merchantId: string, transactionId: string, options: { now: Date; publicUrl: string; language?: string | undefined },
): Promise<void> {
  try {
    const change = await receiptChange(request.unit.store, merchantId, transactionId, options);
    if (change) await request.unit.write(change);
  } catch (error) {
    request.log.error({ err: error, merchantId, transactionId }, 'The receipt could not be sent.');
  }
}
