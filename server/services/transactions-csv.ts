import { Readable } from 'node:stream';
import type { Store } from '../store/store.ts';
import { readConsoleQuery, type ConsoleQuery } from './console-filters.ts';
import type { Transaction } from '../store/transactions.ts';
import type { ConsoleKey } from '../store/console-listing.ts';
import type { PaymentDetails } from '../store/payment-details.ts';
import { invalid } from '../domain/refusals.ts';
import { CSV_TEXTS, csvStatus, type CsvLanguage, type CsvTexts } from '../domain/csv-texts.ts';
import type { ConsoleFilter, ConsoleOrder } from '../store/console-listing.ts';

const COLUMNS = [
  'transaction_id',
  'created_date',
  'type',
  'status',
  'amount',
  'refunded_amount',
  'net_amount',
  'card_brand',
  'last_four',
  'order_id',
  'fee',
  'currency',
  'customer',
  'description',
  'refund_reason',
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds the separator, a quote or a line break. Text a spreadsheet would run
 * as a formula (=, +, -, @ first) gets a leading apostrophe; amounts and dates are written by the service.
 */
export function csvField(value: string, isText: boolean, separator = ','): string {
  const safe = isText && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return safe.includes(separator) || /["\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** How one export writes its cells: the language's words, separator and decimal mark, dates in one time zone. */
interface CsvFormat {
  texts: CsvTexts;
  separator: string;
  decimal: string;
  date: Intl.DateTimeFormat;
}

/**
 * Minor units as a spreadsheet of the language reads a number: no currency sign, no grouping, two decimals after the
 * language's decimal mark ("-1234,50" in German).
 */
function csvAmount(minor: number, decimal: string): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}${decimal}${String(abs % 100).padStart(2, '0')}`;
}

/** "2026-01-03 16:30:05": the form every spreadsheet reads as a date and time, in the export's time zone. */
function csvDate(iso: string, format: Intl.DateTimeFormat): string {
  const part = Object.fromEntries(format.formatToParts(new Date(iso)).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}

/** "Duplicate", or "Other: <the merchant's note>": a refund's reason in the export's language, its note as written. */
function reasonText(t: Transaction, texts: CsvTexts): string {
  if (!t.refund_reason) return '';
  const words = texts.reasons[t.refund_reason];
  return t.refund_note ? `${words}: ${t.refund_note}` : words;
}

function csvRow(
  t: Transaction,
  details: PaymentDetails | undefined,
  { texts, separator, decimal, date }: CsvFormat,
): string {
  const money = (minor: number) => csvAmount(minor, decimal);
  // Money not yet moved (an ACH payment the bank has not approved) or never moved (declined) is no income: no fee, no net.
  const moved = t.status !== 'pending' && t.status !== 'declined';
  const values: [string, boolean][] = [
    [t.id, true],
    [csvDate(t.created_at, date), false],
    [texts.types[t.kind] ?? t.kind, false],
    [texts.statuses[csvStatus(t)] ?? t.status, false],
    [money(t.amount), false],
    [money(t.refunded_amount), false],
    [moved ? money(t.net_amount) : '', false],
    [t.card_brand, true],
    [t.last_four, true],
    [t.order_id, true],
    [moved ? money(t.fee_amount) : '', false],
    ['USD', false],
    [details?.customer ?? '', true],
    [details?.description ?? '', true],
    [reasonText(t, texts), true],
  ];
  return values.map(([v, isText]) => csvField(v, isText, separator)).join(separator);
}

/** Rows read per query while exporting: each query is one page of the listing, walked by its cursor. */
export const EXPORT_PAGE = 500;

/**
 * The CSV of every row the console's filter matches, in its order, a page of rows at a time (CRLF lines, as RFC 4180),
 * after a byte-order mark: without one, Excel reads UTF-8 as the system's code page ("Ã©" for "é").
 */
async function* transactionsCsv(
  store: Store,
  merchantId: string,
  filter: ConsoleFilter,
  order: ConsoleOrder,
  format: CsvFormat,
  zone: string,
): AsyncGenerator<string> {
  const header = { ...format.texts.headers, created_date: format.texts.headers.created_date.replace('{zone}', zone) };
  yield `\uFEFF${COLUMNS.map((c) => csvField(header[c], true, format.separator)).join(format.separator)}\r\n`;
  let after: ConsoleKey | undefined;
  for (;;) {
    const start = after ? { after } : { offset: 0 };
    const { page, details } = await store.longRead('export', async (reader) => {
      const page = await reader.consoleListing.page(merchantId, filter, order, EXPORT_PAGE, start, {
        countTotal: false,
      });
      return {
        page,
        details:
          page.items.length > 0
            ? await reader.paymentDetails.of(
                merchantId,
                page.items.map((t) => t.id),
              )
            : new Map(),
      };
    });
    if (page.items.length > 0) yield page.items.map((t) => `${csvRow(t, details.get(t.id), format)}\r\n`).join('');
    if (!page.hasMore || !page.last) return;
    after = page.last;
  }
}

/** `transactions-<merchant>-<date>.csv`. */
const exportFileName = (merchantId: string, now: Date) =>
  `transactions-${merchantId.replace(/[^\w-]/g, '')}-${now.toISOString().slice(0, 10)}.csv`;

/** The export's time zone: an IANA name Intl knows (the console sends the browser's), else a 400 that says so. */
function dateFormatIn(zone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
  } catch {
    throw invalid(`tz must be a time zone such as Europe/Berlin or America/New_York; "${zone}" is not one.`);
  }
}

/**
 * The CSV of a filter's rows as a stream, and its file name: the query is read first, so a bad one is still a 400 in
 * the envelope; then the header row and each page of rows as they are read. English is comma-separated with a decimal
 * point; Spanish, French and German use a semicolon and a decimal comma, as their spreadsheets open CSV.
 */
export function transactionsExport(
  store: Store,
  merchantId: string,
  query: ConsoleQuery & { lang?: CsvLanguage | undefined; tz?: string | undefined },
  now: Date,
) {
  const { filter, order } = readConsoleQuery(query);
  const language = query.lang ?? 'en';
  const zone = query.tz ?? 'UTC';
  const format: CsvFormat = {
    texts: CSV_TEXTS[language],
    separator: language === 'en' ? ',' : ';',
    decimal: language === 'en' ? '.' : ',',
    date: dateFormatIn(zone),
  };
  return {
    filename: exportFileName(merchantId, now),
    csv: Readable.from(transactionsCsv(store, merchantId, filter, order, format, zone)),
  };
}
