import { invalid } from '../domain/refusals.ts';
import { CONSOLE_CARD_BRANDS, searchTerms, type ConsoleStatus } from '../domain/console.ts';
import type { ConsoleFilter, ConsoleKey, ConsoleOrder, ConsolePage } from '../store/console-listing.ts';
import type { PageStart } from '../store/pages.ts';
import { readRange } from './date-range.ts';

export interface ConsoleQuery {
  from_date?: string | undefined;
  to_date?: string | undefined;
  q?: string | undefined;
  status?: ConsoleStatus | undefined;
  kind?: 'sale' | 'refund' | 'void' | 'hold' | undefined;
  card_brand?: keyof typeof CONSOLE_CARD_BRANDS | undefined;
  sort?: 'date' | 'amount' | undefined;
  order?: 'desc' | 'asc' | undefined;
}

/** The listing's (and the export's) query as a filter and an order; the schema has checked each value's form. */
export function readConsoleQuery(query: ConsoleQuery): { filter: ConsoleFilter; order: ConsoleOrder } {
  const q = query.q?.trim() ?? '';
  // Nothing stored holds a control character (PostgreSQL refuses a NUL in text); one pasted at either end is trimmed.
  if (/[\x00-\x1f\x7f]/.test(q))
    throw invalid('q must not hold control characters (tabs, line breaks) between its words.');
  const search = q !== '' ? searchTerms(q) : undefined;
  return {
    filter: {
      ...readRange(query.from_date, query.to_date),
      kind: query.kind,
      status: query.status,
      cardBrand: query.card_brand && CONSOLE_CARD_BRANDS[query.card_brand],
      search,
    },
    order: { by: query.sort ?? 'date', direction: query.order ?? 'desc' },
  };
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Page numbers reach this many rows; past them a page comes by cursor, which costs its own rows however deep. */
const OFFSET_BOUND = 10_000;

/**
 * The console's cursor: base64url of [sort, direction, the last row's amount (amount order), its date, its insertion
 * number]. A cursor of another order is refused rather than read in this one.
 */
export function consoleCursor(page: ConsolePage, order: ConsoleOrder) {
  const place = page.last && [
    order.by,
    order.direction,
    ...(order.by === 'amount' ? [page.last.amount] : []),
    page.last.at,
    page.last.seq,
  ];
  return {
    next_cursor: place ? Buffer.from(JSON.stringify(place)).toString('base64url') : null,
    has_more: page.hasMore,
  };
}

export function consolePageStart(
  cursor: string | undefined,
  pageNumber: number,
  perPage: number,
  order: ConsoleOrder,
): PageStart<ConsoleKey> {
  if (cursor === undefined) {
    const offset = (pageNumber - 1) * perPage;
    if (offset > OFFSET_BOUND)
      throw invalid(
        `page reaches ${OFFSET_BOUND.toLocaleString('en')} rows at most: go further with next_cursor, which each page answers.`,
      );
    return { offset };
  }
  let place: unknown;
  try {
    place = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? JSON.parse(Buffer.from(cursor, 'base64url').toString()) : undefined;
  } catch {
    place = undefined;
  }
  if (Array.isArray(place) && place[0] === order.by && place[1] === order.direction) {
    const [amount, at, seq] = order.by === 'amount' ? place.slice(2) : [undefined, ...place.slice(2)];
    const amountFits = order.by === 'date' || Number.isSafeInteger(amount);
    if (
      place.length === (order.by === 'amount' ? 5 : 4) &&
      amountFits &&
      typeof at === 'string' &&
      INSTANT.test(at) &&
      Number.isSafeInteger(seq) &&
      seq >= 0
    ) {
      return { after: { amount: amount as number | undefined, at, seq: seq as number } };
    }
  }
  throw invalid('cursor must be a next_cursor from an earlier page of this listing, with the same sort and order.');
}
