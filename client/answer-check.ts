/** The shape of an answer (see scripts/client-types.ts): JSON types and required keys. */
export type Shape =
  | 's'
  | 'n'
  | 'b'
  | 'z'
  | 'u'
  | { readonly o: Readonly<Record<string, Shape>>; readonly r: readonly string[] }
  | { readonly a: Shape }
  | { readonly any: readonly Shape[] };

const TYPE_OF: Record<string, string> = { s: 'string', n: 'number', b: 'boolean' };

/**
 * Where `value` departs from `shape`, e.g. `data.items[3].amount is a number, not a string`; undefined when it
 * fits. Arrays are checked on their first items only: the check is for development, and meant to be cheap.
 */
export function departure(value: unknown, shape: Shape, path = 'the answer'): string | undefined {
  if (shape === 'u') return undefined;
  if (shape === 'z') return value === null ? undefined : `${path} is not null`;
  if (typeof shape === 'string') {
    return typeof value === TYPE_OF[shape]
      ? undefined
      : `${path} is ${value === null ? 'null' : typeof value}, not a ${TYPE_OF[shape]}`;
  }
  if ('any' in shape)
    return shape.any.some((option) => departure(value, option, path) === undefined)
      ? undefined
      : `${path} is none of the types it may be`;
  if ('a' in shape) {
    if (!Array.isArray(value)) return `${path} is not an array`;
    for (let i = 0; i < Math.min(value.length, 3); i++) {
      const found = departure(value[i], shape.a, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${path} is not an object`;
  const record = value as Record<string, unknown>;
  for (const key of shape.r) if (!(key in record)) return `${path}.${key} is missing`;
  for (const [key, inner] of Object.entries(shape.o)) {
    if (record[key] === undefined) continue;
    const found = departure(record[key], inner, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}
