/**
 * The examples of server/openapi-examples stay true to the service. Against the OpenAPI document the service serves:
 * one example per operation and none for an operation it lacks; path parameters, query and body as the operation
 * declares them; the answer as its 200 response declares it. Each TypeScript sample typechecks against paykit/client
 * (one compiler run over all of them) and, run with a fetch that answers the example's answer, makes exactly the
 * example's request; each HTML sample is made of the library's elements with attributes they declare.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import '../../../src/index.ts';
import { PaykitClient } from '../../../client/index.ts';
import { OPERATION_EXAMPLES } from '../../../server/openapi-examples/index.ts';
import type { OperationExample } from '../../../server/openapi-examples/operation-example.ts';
import { startService } from '../../support/service.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
/** The custom elements the library defines (src/index.ts registers them). */
const ELEMENTS = ['pay-button', 'request-payment-button', 'transactions-table'];
/** The one example whose body may carry a card: the sandbox pays with its test card. */
const CARD_EXAMPLE = 'POST /sandbox/pay';

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: unknown;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
}
interface Entry {
  key: string;
  path: string;
  /** JSON pointer of the operation in the document. */
  pointer: string;
  operation: Operation;
  example: OperationExample | undefined;
}

/** The document as served, frozen: a validator that tried to change it would throw. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * A copy of the document in which every object schema that says nothing of other properties takes none. The service
 * sends only what a 200 schema declares (its serializer drops the rest), so an answer "exactly as the service sends
 * it" holds nothing else: a field renamed in the schema must be renamed in the example too. Members of an allOf keep
 * theirs, since each sees only its own part.
 */
function closedObjects(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => (key === 'allOf' ? item : closedObjects(item)));
  if (!value || typeof value !== 'object') return value;
  // The children of a `properties` map are schemas whatever their names.
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [name, closedObjects(inner, key === 'properties' ? undefined : name)]),
  );
  const properties = key === 'properties' ? undefined : copy.properties;
  const open =
    !('additionalProperties' in copy) && !('patternProperties' in copy) && !('unevaluatedProperties' in copy);
  if (properties && typeof properties === 'object' && !Array.isArray(properties) && open) {
    copy.additionalProperties = false;
  }
  return copy;
}

const pointerSegment = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
const isTypeScript = (example: OperationExample) => (example.clientLang ?? 'typescript') === 'typescript';
/** The calls the elements make in the page, which paykit/client has no method for: shown as HTML. */
const madeByElements = (path: string) =>
  path.includes('{public_key}') ||
  ['/widgets/transactions', '/widgets/payouts', '/widgets/disputes'].some(
    (table) => path === table || path.startsWith(`${table}/`),
  );
const asStrings = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)]));

describe('OpenAPI examples (server/openapi-examples)', () => {
  const entries: Entry[] = [];
  let ajv: Ajv2020;
  const validators = new Map<string, ValidateFunction>();

  before(async () => {
    const service = await startService();
    try {
      const served = await service.request('GET', '/api/v1/openapi.json');
      assert.equal(served.status, 200, served.text);
      const doc = deepFreeze(served.body as Doc);
      ajv = new Ajv2020({ strict: false, allErrors: true });
      (addFormats as unknown as (ajv: Ajv2020) => Ajv2020)(ajv);
      // The whole document, so that a schema's $ref into components resolves where it points.
      ajv.addSchema(doc, 'openapi.json');
      ajv.addSchema(closedObjects(doc) as object, 'answers.json');
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          if (!HTTP_METHODS.includes(method)) continue;
          const key = `${method.toUpperCase()} ${path}`;
          entries.push({
            key,
            path,
            pointer: `#/paths/${pointerSegment(path)}/${method}`,
            operation,
            example: OPERATION_EXAMPLES[key],
          });
        }
      }
    } finally {
      await service.close();
    }
  });

  /** Validates `value` against the schema at `pointer` (below the operation); a sentence per problem. */
  function check(pointer: string, value: unknown, what: string, document = 'openapi.json'): string[] {
    const ref = `${document}${pointer}`;
    let validate = validators.get(ref);
    if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: ref })));
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => {
      const params = e.params as { additionalProperty?: string; allowedValues?: unknown[] };
      const detail =
        params.additionalProperty ??
        (params.allowedValues && params.allowedValues.map((v) => JSON.stringify(v)).join(', '));
      return `${what}${e.instancePath} ${e.message}${detail ? ` (${detail})` : ''}`;
    });
  }

  /** Fails with every problem, by operation. */
  function assertNone(problems: Map<string, string[]>, what: string): void {
    const text = [...problems]
      .filter(([, list]) => list.length > 0)
      .map(([key, list]) => `${key}:\n  ${list.join('\n  ')}`)
      .join('\n');
    if (text) assert.fail(`${what}:\n${text}`);
  }

  test('every operation of the document has an example, and every example an operation of the document', () => {
    assert.ok(entries.length >= 35, `the document has ${entries.length} operations`);
    const documented = new Set(entries.map((e) => e.key));
    const missing = entries.filter((e) => !e.example).map((e) => e.key);
    const extra = Object.keys(OPERATION_EXAMPLES).filter((key) => !documented.has(key));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
  });

  test("each example's path parameters, query and body are what its operation takes", () => {
    const problems = new Map<string, string[]>();
    for (const { key, path, pointer, operation, example } of entries) {
      if (!example) continue;
      const found: string[] = [];
      problems.set(key, found);
      const parameters = (operation.parameters ?? []).map((p, i) => ({
        ...p,
        at: `${pointer}/parameters/${i}/schema`,
      }));
      for (const where of ['path', 'query'] as const) {
        const declared = parameters.filter((p) => p.in === where);
        const given: Record<string, unknown> = (where === 'path' ? example.params : example.query) ?? {};
        const field = where === 'path' ? 'params' : 'query';
        for (const p of declared) {
          if (!(p.name in given)) {
            if (where === 'path' || p.required) found.push(`${field}.${p.name} is missing: the operation requires it`);
            continue;
          }
          if (p.schema !== undefined) found.push(...check(p.at, given[p.name], `${field}.${p.name}`));
        }
        for (const name of Object.keys(given)) {
          if (!declared.some((p) => p.name === name))
            found.push(`${field}.${name} is not a ${where} parameter of the operation`);
        }
      }
      const json = operation.requestBody?.content?.['application/json'];
      if (!operation.requestBody) {
        if (example.body !== undefined) found.push('body is given, but the operation takes none');
      } else if (!json?.schema) {
        found.push('the operation takes no application/json body');
      } else if (example.body === undefined) {
        if (operation.requestBody.required) found.push('body is missing: the operation requires one');
      } else {
        found.push(...check(`${pointer}/requestBody/content/application~1json/schema`, example.body, 'body'));
      }
      if (typeof example.client !== 'string' || example.client.trim() === '') found.push('client has no sample');
      const html = example.clientLang === 'html';
      if (html !== madeByElements(path)) {
        found.push(
          html
            ? 'an HTML sample for a call paykit/client makes: write the TypeScript'
            : 'the elements make this call in the page: show the element (clientLang html)',
        );
      }
    }
    assertNone(problems, 'examples that do not send what their operation takes');
  });

  test("each example's answer is the 200 answer its operation declares, and a success", () => {
    const problems = new Map<string, string[]>();
    for (const { key, pointer, operation, example } of entries) {
      if (!example) continue;
      // A CSV export answers its text: a header row, then rows, each line ended by CRLF.
      if (operation.responses?.['200']?.content?.['text/csv']) {
        const text = example.answer;
        problems.set(
          key,
          typeof text === 'string' && /^[^\r\n]+\r\n([^\r\n]*\r\n)*$/.test(text)
            ? []
            : ['a CSV answer is its text, CRLF lines'],
        );
        continue;
      }
      const schema = operation.responses?.['200']?.content?.['application/json']?.schema;
      const found =
        schema === undefined
          ? ['the operation declares no application/json 200 answer']
          : check(
              `${pointer}/responses/200/content/application~1json/schema`,
              example.answer,
              'answer',
              'answers.json',
            );
      const envelope = example.answer as { result?: unknown; status?: unknown } | null;
      if (envelope?.result !== true && envelope?.status !== true)
        found.push('answer is not a success (result: true, or status: true)');
      problems.set(key, found);
    }
    assertNone(problems, 'answers that are not what their operation declares');
  });

  test('no example but the sandbox payment carries a card number or a CVC', () => {
    const luhn = (digits: string) =>
      [...digits]
        .reverse()
        .reduce((sum, d, i) => sum + (i % 2 ? [0, 2, 4, 6, 8, 1, 3, 5, 7, 9][Number(d)]! : Number(d)), 0) %
        10 ===
      0;
    const carrying: string[] = [];
    for (const [key, example] of Object.entries(OPERATION_EXAMPLES)) {
      if (key === CARD_EXAMPLE) continue;
      const text = JSON.stringify(example);
      const cards = [...text.matchAll(/(?<!\d)\d{13,19}(?!\d)/g)].map((m) => m[0]).filter(luhn);
      if (cards.length > 0) carrying.push(`${key}: ${cards.join(', ')}`);
      if (/\bcvc\b|\bcvv\b/i.test(text)) carrying.push(`${key}: a CVC`);
    }
    assert.deepEqual(carrying, []);
  });

  describe('the paykit/client samples', () => {
    let dir = '';
    const samples: { key: string; name: string; start: number; end: number }[] = [];
    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    before(() => {
      dir = mkdtempSync(join(root, 'test/.tmp-samples-'));
      const lines = ["import type { PaykitClient } from 'paykit/client';", ''];
      for (const [index, [key, example]] of Object.entries(OPERATION_EXAMPLES).entries()) {
        if (!isTypeScript(example)) continue;
        const name = `sample${index}`;
        lines.push(`// ${key}`, `export async function ${name}(paykit: PaykitClient): Promise<void> {`);
        const start = lines.length + 1;
        lines.push(...example.client.split('\n').map((line) => (line ? `  ${line}` : line)));
        samples.push({ key, name, start, end: lines.length });
        lines.push('}', '');
      }
      writeFileSync(join(dir, 'samples.ts'), lines.join('\n'));
      // The repository's compiler options, so that paykit/client resolves to client/ as in every test.
      // A sample ends on the answer a reader goes on to use (`const { pay_link } = …`): unused here, as it should be.
      const tsconfig = {
        extends: join(root, 'tsconfig.json'),
        compilerOptions: { noUnusedLocals: false },
        files: ['samples.ts'],
        include: [],
      };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    });

    test('typecheck against paykit/client (one compiler run)', () => {
      assert.ok(samples.length >= 30, `${samples.length} TypeScript samples`);
      const result = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], {
        encoding: 'utf8',
        cwd: root,
      });
      const output = `${result.stdout}${result.stderr}`.trim();
      // Name each error after the operation whose sample it is in.
      const file = relative(root, join(dir, 'samples.ts'));
      const errors = output
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const at = /^(.*?)\((\d+),(\d+)\): (.*)$/.exec(line);
          if (!at || !at[1]!.endsWith('samples.ts')) return line;
          const lineNumber = Number(at[2]);
          const sample = samples.find((s) => lineNumber >= s.start && lineNumber <= s.end);
          return sample
            ? `${sample.key} (line ${lineNumber - sample.start + 1} of its sample): ${at[4]}`
            : `${file}:${lineNumber}: ${at[4]}`;
        });
      assert.equal(result.status, 0, `the samples do not typecheck:\n${errors.join('\n')}`);
    });

    test("each, run with a fetch that answers the example's answer, makes exactly the example's request", async (t) => {
      t.mock.method(console, 'log', () => {});
      const module = (await import(pathToFileURL(join(dir, 'samples.ts')).href)) as Record<
        string,
        (paykit: PaykitClient) => Promise<void>
      >;
      const problems = new Map<string, string[]>();
      for (const { key, name } of samples) {
        const example = OPERATION_EXAMPLES[key]!;
        const entry = entries.find((e) => e.key === key);
        const found: string[] = [];
        problems.set(key, found);
        const calls: { method: string; url: URL; type: string | undefined; body: string | undefined }[] = [];
        const paykit = new PaykitClient({
          clientId: 'cli_examples',
          secretKey: 'sk_examples',
          baseUrl: 'http://localhost:4010',
          maxRetries: 0,
          validateAnswers: true,
          fetch: async (input, init) => {
            calls.push({
              method: init?.method ?? 'GET',
              url: new URL(String(input)),
              type: new Headers(init?.headers).get('content-type') ?? undefined,
              body: init?.body == null ? undefined : String(init.body),
            });
            return typeof example.answer === 'string'
              ? new Response(example.answer, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } })
              : new Response(JSON.stringify(example.answer), {
                  status: 200,
                  headers: { 'content-type': 'application/json' },
                });
          },
        });
        try {
          await module[name]!(paykit);
        } catch (error) {
          found.push(`the sample failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (calls.length !== 1) {
          found.push(`it made ${calls.length} calls, not 1`);
          continue;
        }
        const call = calls[0]!;
        const [method, path] = key.split(' ') as [string, string];
        const filled = path.replace(/\{(\w+)\}/g, (_, param: string) =>
          encodeURIComponent(example.params?.[param] ?? `{${param}}`),
        );
        const expectedPath = `/api/v1${filled}`;
        if (call.method !== method || call.url.pathname !== expectedPath) {
          found.push(`it called ${call.method} ${call.url.pathname}, not ${method} ${expectedPath}`);
        }
        if (!entry) found.push('no such operation in the document');
        const query = Object.fromEntries(call.url.searchParams);
        try {
          assert.deepEqual(query, asStrings(example.query ?? {}));
        } catch {
          found.push(
            `it sent the query ${JSON.stringify(query)}, the example says ${JSON.stringify(example.query ?? {})}`,
          );
        }
        let sent: unknown;
        if (call.body === undefined) sent = undefined;
        else if (call.type?.startsWith('application/json')) sent = JSON.parse(call.body);
        else if (call.type?.startsWith('application/x-www-form-urlencoded'))
          sent = Object.fromEntries(new URLSearchParams(call.body));
        else sent = call.body;
        const expected =
          call.type?.startsWith('application/x-www-form-urlencoded') && example.body
            ? asStrings(example.body)
            : example.body;
        try {
          assert.deepEqual(sent, expected);
        } catch {
          found.push(`it sent the body ${JSON.stringify(sent)}, the example says ${JSON.stringify(example.body)}`);
        }
      }
      assertNone(problems, 'samples that do not make the call of their example');
    });
  });

  test("each HTML sample is the library's elements, with attributes they declare and the example's values", () => {
    /** Which request field an element's attribute sends. */
    const SENDS: Record<string, (example: OperationExample) => unknown> = {
      'public-key': (e) => e.params?.public_key,
      amount: (e) => e.body?.amount,
      'order-id': (e) => e.body?.order_id,
      description: (e) => e.body?.description,
      'recipient-phone': (e) => e.body?.recipient_phone,
      'page-size': (e) => e.query?.perPage,
    };
    const problems = new Map<string, string[]>();
    for (const tag of ELEMENTS) assert.ok(customElements.get(tag), `the library defines <${tag}>`);
    for (const [key, example] of Object.entries(OPERATION_EXAMPLES)) {
      if (example.clientLang !== 'html') continue;
      const found: string[] = [];
      problems.set(key, found);
      let rest = example.client;
      let elements = 0;
      const element = /^\s*<([a-z][a-z0-9-]*)((?:\s+[a-z][a-z0-9-]*="[^"<>]*")*)\s*><\/\1>/;
      for (let match = element.exec(rest); match; match = element.exec(rest)) {
        elements++;
        rest = rest.slice(match[0].length);
        const tag = match[1]!;
        const attributes = [...match[2]!.matchAll(/([a-z][a-z0-9-]*)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!] as const);
        const defined = customElements.get(tag) as
          (CustomElementConstructor & { observedAttributes?: string[] }) | undefined;
        if (!ELEMENTS.includes(tag) || !defined) {
          found.push(`<${tag}> is not an element of the library (${ELEMENTS.join(', ')})`);
          continue;
        }
        const declared = defined.observedAttributes ?? [];
        const names = attributes.map(([name]) => name);
        for (const [i, [name, value]] of attributes.entries()) {
          if (!declared.includes(name)) found.push(`<${tag}> has no attribute ${name} (it has ${declared.join(', ')})`);
          if (names.indexOf(name) !== i) found.push(`<${tag}> repeats ${name}`);
          const sent = SENDS[name]?.(example);
          if (sent !== undefined && String(sent) !== value)
            found.push(`<${tag} ${name}="${value}">, but the example sends ${JSON.stringify(sent)}`);
        }
        if (example.params?.public_key !== undefined && !names.includes('public-key'))
          found.push(`<${tag}> names no public-key`);
      }
      if (elements === 0 || rest.trim() !== '')
        found.push(`not only elements of the library: ${JSON.stringify(rest.trim() || example.client)}`);
    }
    assertNone(problems, 'HTML samples that are not what the library defines');
  });
});
