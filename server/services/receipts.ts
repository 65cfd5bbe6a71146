import type { Store } from '../store/store.ts';
import type { Transaction } from '../store/transactions.ts';
import { conflict, notFound } from '../domain/refusals.ts';
import { formatAmount } from '../domain/money.ts';
import { isoInstant } from '../domain/instants.ts';
import { digest, newId, newToken } from '../platform/secrets.ts';
import { isReceiptLanguage, receiptMessage, type ReceiptLanguage } from '../domain/receipt-texts.ts';
import { settingsOf } from './widgets.ts';
import { merchantBrand } from './branding.ts';

/** The kinds a shopper gets a receipt for: a payment, a refund, a void. */
const RECEIPTED = ['sale', 'refund', 'void'] as const;
type ReceiptedKind = (typeof RECEIPTED)[number];
const isReceipted = (t: Transaction): t is Transaction & { kind: ReceiptedKind } => (RECEIPTED as readonly string[]).includes(t.kind);

const RECEIPT_PROBLEMS = {
  disabled: 'Receipts are off for this merchant: turn them on with receipts_enabled in PUT /widgets/.',
  noContact: 'This payment was not requested by SMS or e-mail, so there is nobody to send a receipt to.',
  notReceipted: 'Receipts are sent for payments, refunds and voids.',
} as const;

const receiptPath = (token: string) => `/receipts/${token}`;

/** Why no receipt can be sent for `t`, or the shopper's phone and address (from the pay link's request). */
async function recipientsOf(store: Store, t: Transaction, enabled: boolean): Promise<{ problem: keyof typeof RECEIPT_PROBLEMS } | { channels: ['sms' | 'email', string][] }> {
  if (!isReceipted(t) || (t.kind === 'sale' && t.status !== 'completed' && t.status !== 'voided')) return { problem: 'notReceipted' };
  if (!enabled) return { problem: 'disabled' };
  const request = t.request_id ? await store.paymentRequests.findById(t.merchant_id, t.request_id) : undefined;
  if (!request || request.source === 'qr_code') return { problem: 'noContact' };
  const channels: ['sms' | 'email', string][] = [];
  if (request.phone) channels.push(['sms', request.phone]);
  if (request.email) channels.push(['email', request.email]);
  return channels.length ? { channels } : { problem: 'noContact' };
}

/**
 * Sends the shopper a receipt for a payment, refund or void: a hosted page's link by the request's channels (SMS,
 * e-mail; the sandbox outbox), in `language`. Nothing when the merchant turned receipts off or the payment names no
 * phone or address; `strict` makes those a refusal (a resend the merchant asked for).
 */
export async function sendReceipt(
  store: Store, merchantId: string, transactionId: string, options: { now: Date; publicUrl: string; language?: string | undefined; strict?: boolean },
): Promise<boolean> {
  // Read first: for a merchant with receipts off, a payment call pays this one read for them.
  const enabled = settingsOf(await store.widgets.settings(merchantId)).receipts_enabled;
  if (!enabled && !options.strict) return false;
  const t = await store.transactions.find(merchantId, transactionId);
  if (!t) throw notFound(`No transaction ${transactionId} for this merchant.`);
  const found = await recipientsOf(store, t, enabled);
  if ('problem' in found) {
    if (options.strict) throw conflict(RECEIPT_PROBLEMS[found.problem]);
    return false;
  }
  const merchant = await store.merchants.findByIdUnscoped(merchantId);
  // The shopper's language when known (the pay page's, or an earlier receipt's); '' leaves the page to the browser's.
  const language: ReceiptLanguage | '' = options.language && isReceiptLanguage(options.language) ? options.language : await store.receipts.languageOf(merchantId, transactionId) ?? '';
  const token = newToken('rct_');
  const link = `${options.publicUrl}${receiptPath(token)}`;
  const body = receiptMessage(language || 'en', t.kind as ReceiptedKind, { merchant: merchant?.business_name ?? '', amount: formatAmount(t.amount), link });
  await store.transaction(async (tx) => {
    await tx.receipts.insert({ token_hash: digest(token), merchant_id: merchantId, transaction_id: t.id, language, created_at: isoInstant(options.now) });
    for (const [channel, recipient] of found.channels) {
      await tx.messages.insert({ id: newId('msg_'), client_id: t.client_id, merchant_id: merchantId, channel, recipient, body, pay_link: link, created_at: isoInstant(options.now) });
    }
  });
  return true;
}

/** What the hosted receipt page shows: the transaction of a receipt token, its merchant's name and brand, and the language sent in. */
export async function receiptOf(store: Store, token: string) {
  if (!/^rct_[\w-]{10,100}$/.test(token)) return undefined;
  const receipt = await store.receipts.byTokenHash(digest(token));
  if (!receipt) return undefined;
  const t = await store.transactions.find(receipt.merchant_id, receipt.transaction_id);
  const merchant = await store.merchants.findByIdUnscoped(receipt.merchant_id);
  if (!t || !merchant || !isReceipted(t)) return undefined;
  return { transaction: t, merchantName: merchant.business_name, language: receipt.language, brand: await merchantBrand(store, merchant) };
}

/**
 * The receipt after a change that has committed: the payment, refund or void stands whatever happens to its receipt,
 * so a failure to send one is logged (ids only), not answered; the merchant can send it again from the console.
 */
export async function receiptAfter(
  store: Store, log: { error(object: object, message: string): void }, merchantId: string, transactionId: string,
  options: { now: Date; publicUrl: string; language?: string | undefined },
): Promise<void> {
  try {
    await sendReceipt(store, merchantId, transactionId, options);
  } catch (error) {
    log.error({ err: error, merchantId, transactionId }, 'The receipt could not be sent.');
  }
}
