/** An event's `data` as a shape to compare: what kind of value each field holds, and which fields name the same id. */

/** A field's kind: its type, and for text whether it is an instant, an id of some prefix, or text. */
function kindOf(value: unknown): string {
  if (typeof value !== 'string') return value === null ? 'null' : typeof value;
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value)) return 'instant';
  const prefix = /^(txn|m|mk|pk|lnk|gw|c|evt)_/.exec(value)?.[1];
  return prefix ? `${prefix}_ id` : 'text';
}

/** Which fields hold the same id: `payment.refund`'s transaction_id, linked_txn_id and sales_id are one. */
function sameIds(data: Record<string, unknown>): string[] {
  const ids = Object.entries(data).filter(([, value]) => kindOf(value).endsWith(' id'));
  return ids
    .flatMap(([a, x], i) =>
      ids
        .slice(i + 1)
        .filter(([, y]) => x === y)
        .map(([b]) => `${a} = ${b}`),
    )
    .sort();
}

export const shapeOf = (data: Record<string, unknown>) => ({
  fields: Object.fromEntries(
    Object.keys(data)
      .sort()
      .map((key) => [key, kindOf(data[key])]),
  ),
  sameIds: sameIds(data),
});
