import type { Store } from '../store/store.ts';
import type { ReceiptSubject, ShopperContacts, Transaction } from '../store/transactions.ts';
import { conflict, invalid, notFound, rateLimited } from '../domain/refusals.ts';
import { isEmail } from '../domain/contact.ts';
import { normalizePhone } from '../../rules/phone.ts';
import { MESSAGES_PER_RECIPIENT_PER_HOUR, resendRefusal } from '../domain/receipt-limits.ts';
import { isoInstant } from '../domain/instants.ts';
import { digest, newId, newToken } from '../platform/secrets.ts';
import {
  isReceiptLanguage,
  receiptDate,
  receiptInstrument,
  receiptMessage,
  receiptMoney,
  type ReceiptLanguage,
} from '../domain/receipt-texts.ts';
import { merchantBrand } from './branding.ts';
import type { Change, Row } from '../store/changes.ts';

/** The kinds a shopper gets a receipt for: a payment, a refund, a void, a bank payment their bank returned. */
const RECEIPTED = ['sale', 'refund', 'void', 'ach_return'] as const;
type ReceiptedKind = (typeof RECEIPTED)[number];
const isReceipted = (t: Transaction): t is Transaction & { kind: ReceiptedKind } =>
  (RECEIPTED as readonly string[]).includes(t.kind);

const RECEIPT_PROBLEMS = {
  disabled: 'Receipts are off for this merchant: turn them on with receipts_enabled in PUT /widgets/.',
  noContact: 'This payment was not requested by SMS or e-mail, so there is nobody to send a receipt to.',
  notReceipted: 'Receipts are sent for payments, refunds and voids.',
} as const;

const receiptPath = (token: string) => `/receipts/${token}`;

/**
 * Where a receipt can reach the shopper: the pay link's request's phone and address (a QR code's names none), and the
 * address the shopper typed on the pay page, when another (issue 44).
 */
function receiptChannels(contacts: ShopperContacts & { receipt_email?: string | null }): ['sms' | 'email', string][] {
  const requested =
    contacts.request_source === null || contacts.request_source === 'qr_code'
      ? []
      : channelsOf(contacts.phone, contacts.email);
  const typed = contacts.receipt_email;
  if (typed && !requested.some(([, to]) => to.toLowerCase() === typed.toLowerCase())) requested.push(['email', typed]);
  return requested;
}

function channelsOf(phone: string | null, email: string | null): ['sms' | 'email', string][] {
  const channels: ['sms' | 'email', string][] = [];
  if (phone) channels.push(['sms', phone]);
  if (email) channels.push(['email', email]);
  return channels;
}

/** Whether a receipt of a change to this transaction has anyone to go to (when the merchant sends receipts). */
export const canReachShopper = (contacts: ShopperContacts & { receipt_email?: string | null }): boolean =>
  receiptChannels(contacts).length > 0;

/** Why no receipt can be sent for `t`, or where to send it. */
function recipientsOf(
  t: ReceiptSubject,
): { problem: keyof typeof RECEIPT_PROBLEMS } | { channels: ['sms' | 'email', string][] } {
  if (!isReceipted(t) || (t.kind === 'sale' && t.status !== 'completed' && t.status !== 'voided'))
    return { problem: 'notReceipted' };
  if (!t.receipts_enabled) return { problem: 'disabled' };
  // A stored customer's charge has no request: the customer's own phone and address.
  const channels = t.source === 'customer_charge' ? channelsOf(t.customer_phone, t.customer_email) : receiptChannels(t);
  return channels.length ? { channels } : { problem: 'noContact' };
}

/**
 * The shopper's receipt for a payment, refund or void, as a change: a hosted page's link sent by the request's channels
 * (SMS, e-mail; the sandbox outbox), in `language`. Undefined when the merchant turned receipts off or the payment names
 * no phone or address; `strict` makes those a refusal (a resend the merchant asked for).
 */
export async function receiptChange(
  store: Store,
  merchantId: string,
  transactionId: string,
  options: {
    now: Date;
    publicUrl: string;
    language?: string | undefined;
    strict?: boolean;
    /** Where the merchant asked it sent instead (the console: an address or phone it typed, checked by `typedRecipients`). */
    to?: ['sms' | 'email', string][] | undefined;
  },
): Promise<Change | undefined> {
  // One read decides it: a payment with nobody to send a receipt to pays only this.
  const t = await store.transactions.findForReceipt(merchantId, transactionId);
  if (!t) throw notFound(`No transaction ${transactionId} for this merchant.`);
  const asked = recipientsOf(t);
  // Typed recipients stand in for the payment's own: nobody to reach is then no problem, receipts off still is.
  const found =
    options.to?.length && !('problem' in asked && asked.problem !== 'noContact') ? { channels: options.to } : asked;
  if ('problem' in found) {
    if (options.strict) throw conflict(RECEIPT_PROBLEMS[found.problem]);
    return undefined;
  }
  // A resend the merchant asks for is bounded per transaction and per recipient; one that follows a change is not.
  if (options.strict) await refuseOverBound(store, t, found.channels, options.now);
  // The shopper's language when known (the pay page's, or an earlier receipt's); '' leaves the page to the browser's.
  const language: ReceiptLanguage | '' =
    options.language && isReceiptLanguage(options.language)
      ? options.language
      : ((await store.receipts.languageOf(merchantId, transactionId)) ?? '');
  return receiptRows(t, found.channels, language, options);
}

/**
 * The receipt of a transaction a change is about to insert (a captured hold's sale, a customer's charge, a bank
 * payment's return), to be written in that change: read before, so the change and its receipt travel as one write.
 */
export async function newTransactionReceipt(
  store: Store,
  row: Transaction,
  options: { now: Date; publicUrl: string },
): Promise<Change | undefined> {
  const subject = {
    ...row,
    ...(await store.transactions.receiptContext(row.merchant_id, row.request_id, row.customer_id)),
  };
  const found = recipientsOf(subject);
  // No earlier receipt names a language for a transaction not yet written: the page takes the browser's.
  return 'problem' in found ? undefined : receiptRows(subject, found.channels, '', options);
}

function receiptRows(
  t: ReceiptSubject,
  channels: ['sms' | 'email', string][],
  language: ReceiptLanguage | '',
  options: { now: Date; publicUrl: string },
): Change {
  const merchantId = t.merchant_id;
  const token = newToken('rct_');
  const link = `${options.publicUrl}${receiptPath(token)}`;
  const words = language || 'en';
  const body = receiptMessage(words, t.kind as ReceiptedKind, {
    merchant: t.business_name,
    amount: receiptMoney(t.amount, words),
    card: receiptInstrument(t, words),
    date: receiptDate(t.created_at, words),
    link,
  });
  const at = isoInstant(options.now);
  return {
    guards: [],
    rows: [
      {
        table: 'receipts',
        row: { token_hash: digest(token), merchant_id: merchantId, transaction_id: t.id, language, created_at: at },
      },
      ...channels.map(([channel, recipient]): Row => ({
        table: 'messages',
        row: {
          id: newId('msg_'),
          client_id: t.client_id,
          merchant_id: merchantId,
          channel,
          recipient,
          body,
          pay_link: link,
          created_at: at,
        },
      })),
    ],
    events: [],
  };
}

/**
 * An address or phone the merchant typed to send a receipt to (issue 44), checked: none typed is none, a wrong one a
 * refusal that says what to send.
 */
export function typedRecipients(email: string | undefined, phone: string | undefined): ['sms' | 'email', string][] {
  const to: ['sms' | 'email', string][] = [];
  const address = email?.trim();
  if (address) {
    if (!isEmail(address))
      throw invalid(`email "${address}" is not an e-mail address: send one such as name@example.com.`);
    to.push(['email', address]);
  }
  const typed = phone?.trim();
  if (typed) {
    const number = normalizePhone(typed);
    if (number === null)
      throw invalid(`phone "${typed}" is not a phone number: send "+" and the country code, or ten digits.`);
    to.push(['sms', number]);
  }
  return to;
}

async function refuseOverBound(
  store: Store,
  t: ReceiptSubject,
  channels: ['sms' | 'email', string][],
  now: Date,
): Promise<void> {
  const since = isoInstant(now, -60 * 60 * 1000);
  const receipts = await store.receipts.sentSince(t.merchant_id, t.id, since);
  const recipients = await Promise.all(
    channels.map(async ([channel, recipient]) => ({
      recipient,
      sent: await store.messages.sentTo(t.merchant_id, channel, recipient, since, MESSAGES_PER_RECIPIENT_PER_HOUR),
    })),
  );
  const refusal = resendRefusal(receipts, recipients, now);
  if (refusal) throw rateLimited(refusal.message, refusal.retryAfterSeconds);
}

/** What the hosted receipt page shows: the transaction of a receipt token, its merchant's name and brand, and the language sent in. */
export async function receiptOf(store: Store, token: string) {
  if (!/^rct_[\w-]{10,100}$/.test(token)) return undefined;
  const receipt = await store.receipts.byTokenHash(digest(token));
  if (!receipt) return undefined;
  const t = await store.transactions.find(receipt.merchant_id, receipt.transaction_id);
  const merchant = await store.merchants.findByIdUnscoped(receipt.merchant_id);
  if (!t || !merchant || !isReceipted(t)) return undefined;
  // The payment the receipt is about: itself, or the original of a refund or void; shown as it stands now.
  const payment =
    t.kind === 'sale' ? t : t.parent_id ? await store.transactions.find(merchant.id, t.parent_id) : undefined;
  const refunds = payment
    ? (await store.consoleListing.reversalsOf(merchant.id, payment.id)).filter((r) => r.kind === 'refund')
    : [];
  const details = (await store.paymentDetails.of(merchant.id, [t.id])).get(t.id);
  return {
    transaction: t,
    payment,
    refunds,
    description: details?.description ?? '',
    tax: details?.tax ?? 0,
    merchantName: merchant.business_name,
    contact: { email: merchant.email, phone: merchant.phone, website: merchant.website },
    language: receipt.language,
    brand: await merchantBrand(store, merchant),
  };
}
