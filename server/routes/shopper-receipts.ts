import type { FastifyRequest } from 'fastify';
import { newTransactionReceipt, receiptChange } from '../services/receipts.ts';
import type { Change, Row } from '../store/changes.ts';
import type { Transaction } from '../store/transactions.ts';

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
 * A charge's change and its receipt as one write of the request's unit (a captured hold, a stored customer's charge, a
 * returned bank payment): the message rows commit with the money, or neither does. The receipt of the transaction the
 * change inserts is made first, from what the decision wrote and one read of its merchant and shopper: as one change,
 * a charge is one message to SQLite's writer (in a Kysely transaction, statement by statement, it ran 5× slower).
 */
export async function writeWithReceipt<A>(
  request: FastifyRequest,
  { change, shopperReachable }: { change: Change; shopperReachable: boolean },
  answer: A,
  transactionId: string,
  options: { now: Date; publicUrl: string },
): Promise<A> {
  if (!shopperReachable) return request.unit.write(change, answer);
  const inserted = change.rows
    .filter((r): r is Row<'transactions'> => r.table === 'transactions')
    .find(({ row }) => row.id === transactionId);
  if (!inserted) throw new Error(`writeWithReceipt: the change inserts no transaction ${transactionId}`);
  const receipt = await newTransactionReceipt(request.unit.store, inserted.row as Transaction, options);
  return request.unit.write(receipt ? { ...change, rows: [...change.rows, ...receipt.rows] } : change, answer);
}
