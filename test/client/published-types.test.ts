/**
 * The published declarations of `paykit/client` stand alone: a user's TypeScript resolves everything from the
 * package itself (or node:*), never `typebox` (a devDependency) or the service's code; and the generated types
 * they carry match the service's schemas.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

function runTsc(project: string): void {
  const result = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  assert.equal(result.status, 0, `tsc -p ${project}:\n${result.stdout}${result.stderr}`);
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
}

test('each generated type equals TypeBox Static of its schema (test/contract/wire-types.check.ts typechecks)', () => {
  const dir = mkdtempSync(join(root, 'node_modules/.paykit-schema-check-'));
  try {
    writeJson(join(dir, 'tsconfig.json'), {
      extends: join(root, 'tsconfig.json'),
      files: [join(root, 'test/contract/wire-types.check.ts')],
      include: [],
    });
    runTsc(join(dir, 'tsconfig.json'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The folders paykit/client's declarations may reach: its own, and the wire types generated into contract/. */
const CLIENT_FOLDERS = ['client', 'contract'];

test('the declarations of paykit/client reach nothing outside the package, and a consumer without typebox typechecks', () => {
  const work = mkdtempSync(join(tmpdir(), 'paykit-client-types-'));
  try {
    // The build's declaration step (tsconfig.build.json), for the client's entry.
    const types = join(work, 'types');
    writeJson(join(work, 'tsconfig.build.json'), {
      extends: join(root, 'tsconfig.build.json'),
      compilerOptions: { outDir: types, rootDir: root },
      files: [join(root, 'client/index.ts')],
      include: [],
    });
    runTsc(join(work, 'tsconfig.build.json'));

    // Walk every import of the declaration closure from the entry.
    const entry = join(types, 'client/index.d.ts');
    const seen = new Set<string>();
    const queue = [entry];
    const outside: string[] = [];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      const specifiers = [
        ...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g),
        ...text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
        ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
        ...text.matchAll(/\/\/\/\s*<reference\s+(?:types|path)=['"]([^'"]+)['"]/g),
      ].map((match) => match[1]!);
      for (const specifier of specifiers) {
        if (specifier.startsWith('node:')) continue;
        if (!specifier.startsWith('.')) {
          outside.push(`${relative(types, file)} imports the package "${specifier}"`);
          continue;
        }
        const target = resolve(dirname(file), specifier).replace(/\.(ts|js)$/, '.d.ts');
        if (!existsSync(target)) outside.push(`${relative(types, file)}: ${specifier} does not resolve`);
        else if (!CLIENT_FOLDERS.some((folder) => target.startsWith(join(types, folder, '/')))) {
          outside.push(
            `${relative(types, file)} reaches ${relative(types, target)}, outside ${CLIENT_FOLDERS.join(', ')}`,
          );
        } else queue.push(target);
      }
    }
    assert.deepEqual(outside, [], 'the declaration closure of paykit/client');
    assert.ok(seen.has(join(types, 'contract/wire-types.d.ts')), 'the generated types are part of it');

    // A user's project: the package in node_modules, no typebox anywhere above it, declarations really checked.
    const pkg = join(work, 'consumer/node_modules/paykit');
    for (const folder of CLIENT_FOLDERS)
      cpSync(join(types, folder), join(pkg, 'dist/types', folder), { recursive: true });
    writeFileSync(join(pkg, 'dist/client.js'), 'export {};\n');
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    writeJson(join(pkg, 'package.json'), {
      name: 'paykit',
      type: 'module',
      exports: { './client': manifest.exports['./client'] },
    });
    writeFileSync(
      join(work, 'consumer/consumer.ts'),
      `
import { PaykitClient, PaykitError, verifyWebhook, type PaymentRequest, type TransactionList, type PaykitEvent } from 'paykit/client';

const paykit = new PaykitClient({ clientId: 'demo_partner', secretKey: 'sk_test', environment: 'sandbox' });
const request: PaymentRequest = { merchant_key: 'mk_1', amount: '25.00', order_id: 'order-1', phone_number: '+14155550123' };
const asNumber: PaymentRequest = { merchant_key: 'mk_1', amount: 25.5, order_id: 'order-2' };
// @ts-expect-error amount is decimal text or a number, as the service's schema says
const wrong: PaymentRequest = { merchant_key: 'mk_1', amount: true, order_id: 'order-1' };

export async function run(body: string, headers: Record<string, string>): Promise<string> {
  const { pay_link } = await paykit.payments.request(request, { idempotencyKey: 'order-1' });
  const list: TransactionList = await paykit.transactions.list('mk_1', { limit: 10 });
  const event: PaykitEvent = verifyWebhook(body, headers, 'whsec_x');
  if (event.event_type === 'payment.success') return event.data.transaction_id;
  try {
    await paykit.transactions.refund({ merchant_key: 'mk_1', transaction_id: list.items[0]!.transaction_id, amount: '5.00' });
  } catch (error) {
    if (error instanceof PaykitError) return String(error.status);
  }
  return pay_link + String(wrong) + String(asNumber);
}
`,
    );
    writeJson(join(work, 'consumer/tsconfig.json'), {
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        noEmit: true,
        skipLibCheck: false,
        // Node's own types only (verifyWebhook takes a Buffer), from this repository; nothing else of it.
        typeRoots: [join(root, 'node_modules/@types')],
        types: ['node'],
      },
      files: ['consumer.ts'],
    });
    assert.ok(
      !existsSync(join(work, 'node_modules')) && !existsSync(join(tmpdir(), 'node_modules')),
      'no node_modules above the consumer',
    );
    runTsc(join(work, 'consumer/tsconfig.json'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
