import { Readable } from 'node:stream';
import type { Store } from '../store/store.ts';
import { readConsoleQuery, type ConsoleQuery } from './console-filters.ts';
import type { Transaction } from '../store/transactions.ts';
import type { ConsoleKey } from '../store/console-listing.ts';
import { formatAmount } from '../domain/money.ts';
import type { ConsoleFilter, ConsoleOrder } from '../store/console-listing.ts';

export type CsvLanguage = 'en' | 'es' | 'fr' | 'de';

const COLUMNS = ['transaction_id', 'created_date', 'type', 'status', 'amount', 'refunded_amount', 'net_amount', 'card_brand', 'last_four', 'order_id'] as const;

/** The header row in each language the console speaks; the columns stay in this order whatever the language. */
const HEADERS: Record<CsvLanguage, Record<(typeof COLUMNS)[number], string>> = {
  en: { transaction_id: 'Transaction ID', created_date: 'Date (UTC)', type: 'Type', status: 'Status', amount: 'Amount', refunded_amount: 'Refunded', net_amount: 'Net', card_brand: 'Card brand', last_four: 'Last four', order_id: 'Order ID' },
  es: { transaction_id: 'ID de transacción', created_date: 'Fecha (UTC)', type: 'Tipo', status: 'Estado', amount: 'Importe', refunded_amount: 'Reembolsado', net_amount: 'Neto', card_brand: 'Marca de tarjeta', last_four: 'Últimos cuatro', order_id: 'ID de pedido' },
  fr: { transaction_id: 'ID de transaction', created_date: 'Date (UTC)', type: 'Type', status: 'Statut', amount: 'Montant', refunded_amount: 'Remboursé', net_amount: 'Net', card_brand: 'Marque de carte', last_four: 'Quatre derniers chiffres', order_id: 'ID de commande' },
  de: { transaction_id: 'Transaktions-ID', created_date: 'Datum (UTC)', type: 'Art', status: 'Status', amount: 'Betrag', refunded_amount: 'Erstattet', net_amount: 'Netto', card_brand: 'Kartenmarke', last_four: 'Letzte vier Ziffern', order_id: 'Bestell-ID' },
};

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. Text a spreadsheet would run as a
 * formula (=, +, -, @ first) gets a leading apostrophe; amounts are written by the service and never need one.
 */
export function csvField(value: string, isText: boolean): string {
  const safe = isText && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvRow(t: Transaction): string {
  const values: [string, boolean][] = [
    [t.id, true], [t.created_at, false], [t.kind, false], [t.status, false], [formatAmount(t.amount), false],
    [formatAmount(t.refunded_amount), false], [formatAmount(t.net_amount), false], [t.card_brand, true], [t.last_four, true], [t.order_id, true],
  ];
  return values.map(([v, isText]) => csvField(v, isText)).join(',');
}

/** Rows read per query while exporting: each query is one page of the listing, walked by its cursor. */
export const EXPORT_PAGE = 500;

/** The CSV of every row the console's filter matches, in its order, a page of rows at a time (CRLF lines, as RFC 4180). */
async function* transactionsCsv(store: Store, merchantId: string, filter: ConsoleFilter, order: ConsoleOrder, language: CsvLanguage): AsyncGenerator<string> {
  yield `${COLUMNS.map((c) => csvField(HEADERS[language][c], true)).join(',')}\r\n`;
  let after: ConsoleKey | undefined;
  for (;;) {
    const start = after ? { after } : { offset: 0 };
    const page = await store.longRead('export', (reader) => reader.consoleListing.page(merchantId, filter, order, EXPORT_PAGE, start, { countTotal: false }));
    if (page.items.length > 0) yield page.items.map((t) => `${csvRow(t)}\r\n`).join('');
    if (!page.hasMore || !page.last) return;
    after = page.last;
  }
}

/** `transactions-<merchant>-<date>.csv`. */
const exportFileName = (merchantId: string, now: Date) => `transactions-${merchantId.replace(/[^\w-]/g, '')}-${now.toISOString().slice(0, 10)}.csv`;

/**
 * The CSV of a filter's rows as a stream, and its file name: the query is read first, so a bad one is still a 400 in
 * the envelope; then the header row and each page of rows as they are read.
 */
export function transactionsExport(store: Store, merchantId: string, query: ConsoleQuery & { lang?: CsvLanguage | undefined }, now: Date) {
  const { filter, order } = readConsoleQuery(query);
  return { filename: exportFileName(merchantId, now), csv: Readable.from(transactionsCsv(store, merchantId, filter, order, query.lang ?? 'en')) };
}
