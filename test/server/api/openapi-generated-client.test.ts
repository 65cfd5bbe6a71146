import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startService, type TestService } from '../../support/service.ts';
import { generateTypes } from 'paykit-openapi-generator/generate.ts';
import type { JsonSchema } from '../../support/openapi.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** The README's TypeScript block under "From a generated client", as written there. */
function readmeCalls(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### From a generated client\n'));
  return /```ts\n([\s\S]*?)```/.exec(section)![1]!;
}

/** Calls a generated client must refuse to compile: each line's error is expected, or tsc fails the check. */
const WRONG_CALLS = `
import createClient from 'openapi-fetch';
import type { paths } from './paykit-api.ts';
const paykit = createClient<paths>({ baseUrl: 'http://127.0.0.1/api/v1' });
// @ts-expect-error merchant_key is required
await paykit.GET('/merchant/transactions', { params: { query: {} } });
// @ts-expect-error a page size is a number
await paykit.GET('/merchant/transactions', { params: { query: { merchant_key: 'mk_1', limit: 'ten' } } });
// @ts-expect-error page numbers are integers, not text
await paykit.GET('/customers', { params: { query: { merchant_key: 'mk_1', page: '2' } } });
// @ts-expect-error amounts are text or numbers, and the body needs its merchant
await paykit.POST('/order/sales-return', { body: { transaction_id: 'txn_1', amount: '5.00' } });
`;

/** A refusal as a generated client types it: every status but 200 declares the envelope, so `error` is one type. */
const REFUSALS = `
import createClient from 'openapi-fetch';
import type { components, paths } from './paykit-api.ts';
export async function refusal(baseUrl: string, authorization: string, merchant_key: string) {
  const paykit = createClient<paths>({ baseUrl, headers: { authorization } });
  const { error, response } = await paykit.GET('/merchant/transactions', { params: { query: { merchant_key } } });
  const failure: components['schemas']['Failure'] | undefined = error;
  return { status: response.status, code: failure?.code, message: failure?.message };
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
  },
  include: ['*.ts'],
};

describe('a client generated from /openapi.json with openapi-typescript and openapi-fetch, as integrators make one', () => {
  let service: TestService;
  let document: JsonSchema;
  let dir: string;
  before(async () => {
    service = await startService();
    document = (await service.request('GET', '/api/v1/openapi.json')).body;
    // The app's folder: the generated types, the README's calls, and the repository's packages.
    dir = mkdtempSync(join(tmpdir(), 'paykit-generated-client-'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'paykit-api.ts'), await generateTypes(document));
    writeFileSync(join(dir, 'readme-calls.ts'), readmeCalls());
    writeFileSync(join(dir, 'wrong-calls.ts'), WRONG_CALLS);
    writeFileSync(join(dir, 'refusals.ts'), REFUSALS);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  });
  after(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('parameters with a default are optional, and pages and page sizes are integers under every name', () => {
    const paging = new Set(['page', 'pageNumber', 'perPage', 'limit']);
    let seen = 0;
    for (const [path, item] of Object.entries<JsonSchema>(document['paths'])) {
      for (const [method, operation] of Object.entries<JsonSchema>(item)) {
        for (const parameter of operation['parameters'] ?? []) {
          const where = `${method} ${path} ${parameter.name}`;
          if (parameter.schema?.default !== undefined)
            assert.notEqual(parameter.required, true, `${where} has a default`);
          if (paging.has(parameter.name)) {
            seen++;
            assert.equal(parameter.schema.type, 'integer', where);
            assert.notEqual(parameter.required, true, where);
          }
        }
      }
    }
    assert.ok(seen >= 10, `${seen} paging parameters`);
  });

  test("the README's calls and the generated types compile; wrong calls do not", async () => {
    const answer = await run(process.execPath, [TSC, '-p', dir], { cwd: dir }).catch(
      (error: { stdout: string }) => error,
    );
    assert.equal(answer.stdout, '', `tsc: ${answer.stdout}`);
  });

  test("the README's calls run against the service as written", async () => {
    const { clientId, secretKey } = service.client;
    const { stdout } = await run(process.execPath, [join(dir, 'readme-calls.ts')], {
      cwd: ROOT,
      env: { ...process.env, PAYKIT: `${service.baseUrl}/api/v1`, AUTH: `${clientId}:${secretKey}` },
    });
    assert.match(stdout, /^1 customer, 1 sale, refunded 5 of txn_[\w-]+\n$/);
  });

  test('refusals come typed as the envelope, with the status and code the service answers', async () => {
    const { refusal } = await import(pathToFileURL(join(dir, 'refusals.ts')).href);
    const { clientId, secretKey } = service.client;
    const basic = (secret: string) => `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
    const baseUrl = `${service.baseUrl}/api/v1`;
    const unknown = await refusal(baseUrl, basic(secretKey), 'mk_unknown');
    assert.deepEqual([unknown.status, unknown.code], [404, 'not_found']);
    assert.match(unknown.message, /merchant_key/);
    const unauthenticated = await refusal(baseUrl, basic('sk_wrong'), 'mk_unknown');
    assert.deepEqual([unauthenticated.status, unauthenticated.code], [401, 'authentication_failed']);
    const empty = await refusal(baseUrl, basic(secretKey), '');
    assert.deepEqual([empty.status, empty.code], [400, 'invalid_request']);
  });
});
