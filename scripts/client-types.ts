/**
 * `npm run client-types`: writes the plain TypeScript of the request and answer schemas in server/schemas, once,
 * into contract/wire-types.ts, which both the widgets (src/) and paykit/client (client/) import; the service's
 * refusal reasons (server/domain/refusals.ts) into contract/refusal-reasons.ts; and the answers'
 * shapes into client/answer-shapes.ts, for paykit/client's development check. The schemas stay the one source of
 * truth; the generated file lets the published declarations stand alone (no `typebox`, no server code for a user's
 * TypeScript to resolve), and keeps the browser bundle and the partner's client free of server code.
 *
 * The schemas are TypeBox values, i.e. JSON Schema objects at run time: this walks them. Two checks keep the
 * output honest: test/contract/wire-types.test.ts regenerates and compares the files, and
 * test/contract/wire-types.check.ts asserts each generated type equals TypeBox's `Static` of its schema.
 *
 *     node scripts/client-types.ts          # write the files
 *     node scripts/client-types.ts --check  # exit 1 when a file is stale
 */
import { readdirSync, readFileSync } from 'node:fs';
import { writeIfChanged } from './write-if-changed.ts';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = new URL('../', import.meta.url);
export const OUTPUT = fileURLToPath(new URL('contract/wire-types.ts', root));
export const SHAPES_OUTPUT = fileURLToPath(new URL('client/answer-shapes.ts', root));
export const REASONS_OUTPUT = fileURLToPath(new URL('contract/refusal-reasons.ts', root));
const REFUSALS = new URL('server/domain/refusals.ts', root);
const SCHEMA_DIR = new URL('server/schemas/', root);

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  return ['type', 'anyOf', 'const', 'enum'].some((key) => key in value);
}

function comment(text: unknown, indent: string): string {
  if (typeof text !== 'string' || !text.trim()) return '';
  return `${indent}/** ${text.trim().replace(/\*\//g, '*\\/').replace(/\n/g, `\n${indent} * `)} */\n`;
}

function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/** The TypeScript of one schema, as TypeBox's `Static` gives it. */
function typeOf(schema: Schema, indent: string): string {
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as Schema[]).map((member) => typeOf(member, indent)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = typeOf(schema.items as Schema, indent);
      return /[|&]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return objectType(schema, indent);
  }
  if (Object.keys(schema).every((key) => key === 'description' || key === 'title')) return 'unknown';
  throw new Error(
    `client-types: no TypeScript for the schema ${JSON.stringify(schema)}; teach scripts/client-types.ts this kind.`,
  );
}

function objectType(schema: Schema, indent: string): string {
  const inner = `${indent}  `;
  const lines: string[] = [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [name, property] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
    lines.push(
      `${comment(property.description, inner)}${inner}${propertyName(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`,
    );
  }
  for (const value of Object.values((schema.patternProperties as Record<string, Schema> | undefined) ?? {})) {
    lines.push(`${inner}[key: string]: ${typeOf(value, inner)};`);
  }
  return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : '{}';
}

/** The generated file's text: every exported schema of `files` (modules of server/schemas), by module and name. */
async function generateSchemaTypes(files: string[]): Promise<string> {
  const blocks: string[] = [];
  const names: string[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(fileURLToPath(new URL(file, SCHEMA_DIR))).href)) as Record<
      string,
      unknown
    >;
    const schemas = Object.entries(module).filter((entry): entry is [string, Schema] => isSchema(entry[1]));
    if (!schemas.length) continue;
    blocks.push(`// ── server/schemas/${file} ${'─'.repeat(Math.max(3, 96 - file.length))}`);
    for (const [name, schema] of schemas) {
      blocks.push(`${comment(schema.description, '')}export type ${name} = ${typeOf(schema, '')};\n`);
      names.push(name);
    }
  }
  return [
    '// Generated by `npm run client-types` (scripts/client-types.ts) from server/schemas: do not edit by hand.',
    '// The wire types of the widgets (src/) and of paykit/client (client/), both of which import this file.',
    '// test/contract/wire-types.test.ts fails when it differs from what the schemas generate, and',
    "// test/contract/wire-types.check.ts checks each type against TypeBox's Static of its schema.",
    '',
    ...blocks,
    "/** Every generated type by its schema's name; for the check against the schemas. */",
    'export interface SchemaTypes {',
    ...names.map((name) => `  ${name}: ${name};`),
    '}',
    '',
  ].join('\n');
}

/** The platform's operator API is neither the partner's nor the widgets': the contract leaves it out. */
const NOT_FOR_PARTNERS = new Set(['operator.ts']);

/** contract/wire-types.ts: every schema of server/schemas a partner's calls or the widgets' calls use. */
export function generateWireTypes(): Promise<string> {
  const files = readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.ts') && !NOT_FOR_PARTNERS.has(file))
    .sort();
  return generateSchemaTypes(files);
}

/**
 * The shape of one schema, as paykit/client checks an answer in development: JSON types and required keys only.
 * `s` text, `n` number, `b` boolean, `z` null, `u` anything; `{o, r}` an object with its properties and required
 * keys; `{a}` an array of; `{any}` one of.
 */
type Shape = 's' | 'n' | 'b' | 'z' | 'u' | { o: Record<string, Shape>; r: string[] } | { a: Shape } | { any: Shape[] };

function shapeOf(schema: Schema): Shape {
  if ('const' in schema) return typeof schema.const === 'number' ? 'n' : typeof schema.const === 'boolean' ? 'b' : 's';
  if (Array.isArray(schema.enum)) return typeof schema.enum[0] === 'number' ? 'n' : 's';
  if (Array.isArray(schema.anyOf)) return { any: (schema.anyOf as Schema[]).map(shapeOf) };
  switch (schema.type) {
    case 'string':
      return 's';
    case 'number':
    case 'integer':
      return 'n';
    case 'boolean':
      return 'b';
    case 'null':
      return 'z';
    case 'array':
      return { a: shapeOf(schema.items as Schema) };
    case 'object':
      return {
        o: Object.fromEntries(
          Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {}).map(([name, property]) => [
            name,
            shapeOf(property),
          ]),
        ),
        r: (schema.required as string[] | undefined) ?? [],
      };
  }
  return 'u';
}

/** client/answer-shapes.ts: the shape of every answer a partner's call gets, for the development check. */
export async function generateAnswerShapes(): Promise<string> {
  const files = readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.ts') && !NOT_FOR_PARTNERS.has(file))
    .sort();
  const lines: string[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(fileURLToPath(new URL(file, SCHEMA_DIR))).href)) as Record<
      string,
      unknown
    >;
    for (const [name, schema] of Object.entries(module)) {
      if (name.endsWith('Answer') && isSchema(schema)) lines.push(`  ${name}: ${JSON.stringify(shapeOf(schema))},`);
    }
  }
  return [
    '// Generated by `npm run client-types` (scripts/client-types.ts) from server/schemas: do not edit by hand.',
    '// test/contract/wire-types.test.ts fails when it differs from what the schemas generate.',
    '',
    "import type { Shape } from './answer-check.ts';",
    '',
    '/** The shape of each answer, by the name of its schema. */',
    'export const ANSWER_SHAPES = {',
    ...lines.sort(),
    '} as const satisfies Record<string, Shape>;',
    '',
    'export type AnswerName = keyof typeof ANSWER_SHAPES;',
    '',
  ].join('\n');
}

/**
 * contract/refusal-reasons.ts: the service's refusal reasons (server/domain/refusals.ts), as a const array and its
 * union type, each with the comment it has there.
 */
export async function generateRefusalReasons(): Promise<string> {
  const { REASONS } = (await import(REFUSALS.href)) as { REASONS: readonly string[] };
  const source = readFileSync(REFUSALS, 'utf8');
  const lines = REASONS.map((reason) => {
    const documented = new RegExp(`/\\*\\*\\s*(.+?)\\s*\\*/\\s*'${reason}',`).exec(source);
    if (!documented)
      throw new Error(`client-types: the reason ${reason} has no comment in server/domain/refusals.ts; write one.`);
    return `  /** ${documented[1]} */\n  '${reason}',`;
  });
  return [
    '// Generated by `npm run client-types` (scripts/client-types.ts) from server/domain/refusals.ts: do not edit by hand.',
    "// test/contract/wire-types.test.ts fails when it differs from what the service's reasons generate.",
    '',
    '/** Why the service refuses a call: the `code` of its answer (beside `service_error`, a fault on its side). */',
    'export const REFUSAL_REASONS = [',
    ...lines,
    '] as const;',
    '',
    'export type RefusalReason = (typeof REFUSAL_REASONS)[number];',
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outputs = [
    [OUTPUT, generateWireTypes],
    [REASONS_OUTPUT, generateRefusalReasons],
    [SHAPES_OUTPUT, generateAnswerShapes],
  ] as const;
  for (const [output, generate] of outputs) {
    const text = await generate();
    if (!process.argv.includes('--check')) writeIfChanged(output, text);
    else if (readFileSync(output, 'utf8') !== text) {
      console.error(`${output} is stale: run npm run client-types.`);
      process.exit(1);
    }
  }
}
