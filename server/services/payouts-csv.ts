import { Readable } from 'node:stream';
import type { Store } from '../store/store.ts';
import type { EntryListing } from '../store/ledger.ts';
import type { ListingKey } from '../store/pages.ts';
import { csvField, EXPORT_PAGE } from './transactions-csv.ts';
import type { CsvLanguage } from '../domain/csv-texts.ts';
import { entryView } from './payout-views.ts';

const COLUMNS = [
  'type',
  'gross',
  'fee',
  'net',
  'transaction_id',
  'order_id',
  'created_date',
  'available_on',
  'payout_id',
] as const;
type Column = (typeof COLUMNS)[number];
/** Columns whose text comes from outside (an order id): a leading =, +, - or @ is defused (csvField). */
const TEXT: ReadonlySet<Column> = new Set(['transaction_id', 'order_id']);

const HEADERS: Record<CsvLanguage, Record<Column, string>> = {
  en: {
    type: 'Type',
    gross: 'Gross',
    fee: 'Fee',
    net: 'Net',
    transaction_id: 'Transaction ID',
    order_id: 'Order ID',
    created_date: 'Created (UTC)',
    available_on: 'Available on',
    payout_id: 'Payout ID',
  },
  es: {
    type: 'Tipo',
    gross: 'Bruto',
    fee: 'Comisión',
    net: 'Neto',
    transaction_id: 'ID de transacción',
    order_id: 'ID de pedido',
    created_date: 'Creado (UTC)',
    available_on: 'Disponible el',
    payout_id: 'ID de pago',
  },
  fr: {
    type: 'Type',
    gross: 'Brut',
    fee: 'Frais',
    net: 'Net',
    transaction_id: 'ID de transaction',
    order_id: 'ID de commande',
    created_date: 'Créé (UTC)',
    available_on: 'Disponible le',
    payout_id: 'ID de versement',
  },
  de: {
    type: 'Art',
    gross: 'Brutto',
    fee: 'Gebühr',
    net: 'Netto',
    transaction_id: 'Transaktions-ID',
    order_id: 'Bestell-ID',
    created_date: 'Erstellt (UTC)',
    available_on: 'Verfügbar am',
    payout_id: 'Auszahlungs-ID',
  },
};

/** The CSV of a listing of entries, a page at a time: one line per entry, newest first (CRLF lines, as RFC 4180). */
async function* entriesCsv(
  store: Store,
  merchantId: string,
  listing: EntryListing,
  language: CsvLanguage,
): AsyncGenerator<string> {
  yield `${COLUMNS.map((c) => csvField(HEADERS[language][c], true)).join(',')}\r\n`;
  let after: ListingKey | undefined;
  for (;;) {
    const page = await store.ledger.page(merchantId, listing, EXPORT_PAGE, after);
    if (page.items.length > 0) {
      yield page.items
        .map((entry) => {
          const view = entryView(entry);
          return `${COLUMNS.map((c) => csvField(view[c] ?? '', TEXT.has(c))).join(',')}\r\n`;
        })
        .join('');
    }
    if (!page.hasMore || !page.last) return;
    after = page.last;
  }
}

/** The entries of a payout, or of a merchant's range of days, as a CSV stream, and its file name (`name`.csv). */
export function entriesExport(
  store: Store,
  merchantId: string,
  listing: EntryListing,
  name: string,
  language: CsvLanguage = 'en',
) {
  return {
    filename: `${name.replace(/[^\w.-]/g, '')}.csv`,
    csv: Readable.from(entriesCsv(store, merchantId, listing, language)),
  };
}
