import { invalid } from '../domain/refusals.ts';
import type { ListingKey } from '../store/transactions.ts';
import type { Page } from '../store/pages.ts';

/**
 * `next_cursor`: where the next page starts, opaque to partners (base64url of the last row's place in the listing's
 * order). A cursor says nothing a caller may not see: the time and insertion order of a row they were just shown.
 */
export function encodeCursor(place: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(place)).toString('base64url');
}

/** The place a cursor names, or a 400 when it is not one a listing gave out. */
function readPlace(cursor: string, shape: readonly ('string' | 'integer')[]): (string | number)[] {
  let place: unknown;
  try {
    place = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? JSON.parse(Buffer.from(cursor, 'base64url').toString()) : undefined;
  } catch {
    place = undefined;
  }
  const fits = Array.isArray(place) && place.length === shape.length &&
    shape.every((type, i) => (type === 'string' ? typeof place[i] === 'string' && place[i].length <= 40 : Number.isSafeInteger(place[i]) && place[i] >= 0));
  if (!fits) throw invalid('cursor must be a next_cursor from an earlier page of this listing.');
  return place as (string | number)[];
}

/** `next_cursor` and `has_more` of a page of transactions (any listing of them: they share one order). */
export const cursorFields = (page: Page<unknown, ListingKey>) => ({
  next_cursor: page.last ? encodeCursor([page.last.createdAt, page.last.seq]) : null,
  has_more: page.hasMore,
});
export function readTransactionCursor(cursor: string): ListingKey {
  const [createdAt, seq] = readPlace(cursor, ['string', 'integer']) as [string, number];
  return { createdAt, seq };
}

/** Listings ordered by an insertion sequence alone (customers, webhook deliveries). */
export const seqCursorFields = (page: Page<unknown, number>) => ({ next_cursor: page.last === undefined ? null : encodeCursor([page.last]), has_more: page.hasMore });
export const readSeqCursor = (cursor: string) => readPlace(cursor, ['integer'])[0] as number;

/** The review queue's order: submitted time, then id. */
export const applicationCursor = (key: { submittedAt: string; id: string }) => encodeCursor([key.submittedAt, key.id]);
export function readApplicationCursor(cursor: string): { submittedAt: string; id: string } {
  const [submittedAt, id] = readPlace(cursor, ['string', 'string']) as [string, string];
  return { submittedAt, id };
}
