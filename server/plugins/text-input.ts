import { invalid } from '../domain/refusals.ts';

/**
 * Text the service would store differently from what was sent is refused, not changed: bytes that are not UTF-8
 * (decoding would put U+FFFD in their place), a lone UTF-16 surrogate (PostgreSQL stores U+FFFD, SQLite keeps it:
 * the two databases would disagree), NUL (PostgreSQL refuses it), a broken `%`-escape (left as it was sent), and a
 * name given twice (which one wins is a parser's choice).
 */

const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATES = /\p{Surrogate}/gu;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const NOT_UTF8 = 'The body is not valid UTF-8 text: send it encoded as UTF-8.';

/** A body's bytes as text; refused when they are not UTF-8. */
export function utf8Text(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw invalid(NOT_UTF8);
  }
}

/** Refuses `%`-escapes that do not decode to UTF-8 in a query string or form body (`where` names which). */
export function checkPercentEscapes(text: string, where: string): void {
  if (!text.includes('%')) return;
  for (const part of text.split(/[&=]/)) {
    if (!part.includes('%')) continue;
    try {
      decodeURIComponent(part);
    } catch {
      throw invalid(`The ${where} is not valid: a "%" must be followed by two hexadecimal digits of UTF-8.`);
    }
  }
}

/** A form body's fields; a name sent twice is refused. */
export function parseForm(text: string, where = 'body'): Record<string, string> {
  checkPercentEscapes(text, where);
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, name)) throw invalid(`The ${where} names ${quoted(name)} twice: send each field once.`);
    fields[name] = value;
  }
  return fields;
}

/** Where in a request's text (e.g. `body.name`) there is text no database stores as it was sent, and what. */
export function findUnstorableText(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return problemOf(value, path);
  if (value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    // Every request passes through here: a field's path is written out only where it holds a problem or more fields.
    if (
      isStorable(key) &&
      (typeof inner === 'string' ? isStorable(inner) : inner === null || typeof inner !== 'object')
    )
      continue;
    const problem = problemOf(key, `${path}.${key}`) ?? findUnstorableText(inner, `${path}.${key}`);
    if (problem) return problem;
  }
  return undefined;
}

const isStorable = (text: string) => !text.includes('\0') && !LONE_SURROGATE.test(text);

function problemOf(text: string, path: string): string | undefined {
  if (text.includes('\0')) return `Text must not contain the NUL character (\\u0000); ${shown(path)} does.`;
  if (LONE_SURROGATE.test(text))
    return `Text must be valid Unicode; ${shown(path)} holds half of a UTF-16 surrogate pair alone.`;
  return undefined;
}

/** A path as it can be said back: NUL and lone surrogates written as escapes. */
function shown(path: string): string {
  return path.replace(/\0/g, '\\u0000').replace(LONE_SURROGATES, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);
}

function quoted(name: string): string {
  return JSON.stringify(shown(name.length > 40 ? `${name.slice(0, 40)}…` : name));
}

/**
 * How deep objects and arrays nest in JSON text, and the first key an object names twice, read in one pass without
 * parsing (strings are skipped). It stops at `maxDepth + 1`: deeper text is refused whatever else it holds.
 */
export function scanJson(text: string, maxDepth: number): { depth: number; duplicateKey?: string } {
  // One entry per open object or array: an object's keys so far, or null for an array.
  const open: (Set<string> | null)[] = [];
  let expectingKey = false;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i + 1;
      let escaped = false;
      for (i = start; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) {
          escaped = true;
          i++;
        } else if (d === 34) break;
      }
      const keys = open[open.length - 1];
      if (keys && expectingKey) {
        const key = escaped ? decodeJsonString(text.slice(start - 1, i + 1)) : text.slice(start, i);
        if (keys.has(key)) return { depth: deepest, duplicateKey: key };
        keys.add(key);
        expectingKey = false;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      open.push(c === 123 ? new Set() : null);
      expectingKey = c === 123;
      deepest = Math.max(deepest, open.length);
      if (deepest > maxDepth) return { depth: deepest };
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      open.pop();
      expectingKey = false;
    } else if (c === 44 /* , */) {
      expectingKey = open[open.length - 1] != null;
    }
  }
  return { depth: deepest };
}

function decodeJsonString(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal;
  }
}

export const DUPLICATE_KEY = (key: string) =>
  `The body names ${quoted(key)} twice in one object: send each field once.`;
