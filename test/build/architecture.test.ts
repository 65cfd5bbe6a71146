import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  circles,
  importGraph,
  projectCircles,
  projectViolations,
  violations,
  wordsOutsideTheirPart,
} from '../../scripts/import-directions.ts';

test('imports go the way docs/architecture.md says', () => {
  assert.deepEqual(
    projectViolations().map((v) => `${v.file} → ${v.imports}: ${v.rule.why}`),
    [],
  );
});

test('the check fails on a forbidden import, and lets type-only and allowed ones through', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'paykit-arch-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'server/domain/refunds.ts',
    "import { Store } from '../store/store.ts';\nimport type { Clock } from '../platform/clock.ts';\nimport { money } from './money.ts';\n",
  );
  write(
    'server/services/pay.ts',
    "import { sendPage } from '../routes/pages/send.ts';\nimport { decide } from '../domain/refunds.ts';\nimport type { FastifyReply } from 'fastify';\nimport { Type } from 'typebox';\n",
  );
  write(
    'server/store/rows.ts',
    "import type { FastifyBaseLogger } from 'fastify';\nimport fp from '@fastify/swagger';\nimport { Kysely } from 'kysely';\n",
  );
  write(
    'server/routes/refunds.ts',
    "import { openStore } from '../store/open.ts';\nimport type { Store } from '../store/store.ts';\n",
  );
  write(
    'src/widget-api.ts',
    "import type { WidgetBody } from '../server/schemas/widgets.ts';\nimport { buildApp } from '../server/app.ts';\nimport type { PaykitClient } from '../client/index.ts';\n",
  );
  write(
    'client/http.ts',
    "import { formatAmount } from '../src/shared/format.ts';\nimport type { Refusal } from '../server/domain/refusals.ts';\nimport { isValidPhone } from '../rules/phone.ts';\nimport type * as Wire from '../contract/wire-types.ts';\n",
  );
  write('contract/wire-types.ts', "import type { Refusal } from '../server/domain/refusals.ts';\n");
  write('server/routes/pay.ts', "import type * as Wire from '../../contract/wire-types.ts';\n");
  write(
    'server/views/pay.ts',
    "import type { Environment } from '../platform/config.ts';\nimport { Clock } from '../platform/clock.ts';\nexport const x = await import('../services/pay.ts');\n",
  );
  write(
    'src/shared/events.ts',
    "import type { TransactionDetails } from '../widget-api.ts';\nimport type { PaykitErrorCode } from './errors.ts';\n",
  );
  write(
    'src/locales/es.ts',
    "import type { LocaleTexts } from '../shared/i18n.ts';\nimport type { Shape } from './locale-texts.ts';\n",
  );
  write(
    'demo/vite.config.ts',
    "import { compilerOptions } from '../wrappers/vue/compiler.ts';\nimport { PayButton } from '../wrappers/react/index.ts';\n",
  );
  const found = violations(root, [
    'server/domain/refunds.ts',
    'server/services/pay.ts',
    'server/store/rows.ts',
    'server/routes/refunds.ts',
    'src/widget-api.ts',
    'server/views/pay.ts',
    'demo/vite.config.ts',
    'client/http.ts',
    'contract/wire-types.ts',
    'server/routes/pay.ts',
    'src/shared/events.ts',
    'src/locales/es.ts',
  ]).map((v) => `${v.file} → ${v.imports}`);
  assert.deepEqual(found.sort(), [
    'client/http.ts → server/domain/refusals.ts',
    'client/http.ts → src/shared/format.ts',
    'contract/wire-types.ts → server/domain/refusals.ts',
    'demo/vite.config.ts → wrappers/react/index.ts',
    'server/domain/refunds.ts → server/platform/clock.ts',
    'server/domain/refunds.ts → server/store/store.ts',
    'server/routes/pay.ts → contract/wire-types.ts',
    'server/routes/refunds.ts → server/store/open.ts',
    'server/services/pay.ts → fastify',
    'server/services/pay.ts → server/routes/pages/send.ts',
    'server/store/rows.ts → @fastify/swagger',
    'server/store/rows.ts → fastify',
    'server/views/pay.ts → server/platform/clock.ts',
    'server/views/pay.ts → server/services/pay.ts',
    'src/locales/es.ts → src/shared/i18n.ts',
    'src/shared/events.ts → src/widget-api.ts',
    'src/widget-api.ts → client/index.ts',
    'src/widget-api.ts → server/app.ts',
    'src/widget-api.ts → server/schemas/widgets.ts',
  ]);
});

test('the database dialect is named under server/store/ only', () => {
  assert.deepEqual(wordsOutsideTheirPart(), []);
});

test('the dialect check finds the word outside the store, in code and comments, and not inside it', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'paykit-words-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('server/services/guarded.ts', "if (store.dialect === 'postgres') retry();\n");
  write('server/plugins/idempotency.ts', '// on this Dialect the answer is stored later\n');
  write('server/routes/dialects.ts', 'export const sqliteDialects = 1;\n');
  write('server/store/open.ts', "const dialect = 'sqlite';\n");
  assert.deepEqual(
    wordsOutsideTheirPart(root, [
      'server/services/guarded.ts',
      'server/plugins/idempotency.ts',
      'server/routes/dialects.ts',
      'server/store/open.ts',
    ]),
    [
      'server/services/guarded.ts: dialect',
      'server/plugins/idempotency.ts: dialect',
      'server/routes/dialects.ts: dialect',
    ],
  );
});

test('no import circles in src/, client/, contract/ or server/', () => {
  assert.deepEqual(
    projectCircles().map((circle) => circle.join(' → ')),
    [],
  );
});

test('the circle finder finds each circle, type-only and through an index, and nothing in a graph without one', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'paykit-circles-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('src/a.ts', "import { b } from './b.ts';\nimport { lit } from 'lit';\n");
  write('src/b.ts', "import type { C } from './deep/c.ts';\n");
  write('src/deep/c.ts', "export { a } from '../a.ts';\nimport { leaf } from '../leaf.ts';\n");
  write('src/leaf.ts', 'export const leaf = 1;\n');
  write('server/examples/index.ts', "import { one } from './one.ts';\n");
  write('server/examples/one.ts', "import type { Example } from './index.ts';\n");
  write('server/self.ts', "export const later = () => import('./self.ts');\n");
  write('server/tree/top.ts', "import { mid } from './mid.ts';\nimport { leaf } from './leaf.ts';\n");
  write('server/tree/mid.ts', "import { leaf } from './leaf.ts';\n");
  write('server/tree/leaf.ts', 'export const leaf = 1;\n');
  const files = [
    'src/a.ts',
    'src/b.ts',
    'src/deep/c.ts',
    'src/leaf.ts',
    'server/examples/index.ts',
    'server/examples/one.ts',
    'server/self.ts',
    'server/tree/top.ts',
    'server/tree/mid.ts',
    'server/tree/leaf.ts',
  ];
  assert.deepEqual(
    circles(importGraph(root, files)).map((circle) => circle.join(' → ')),
    [
      'server/examples/index.ts → server/examples/one.ts → server/examples/index.ts',
      'server/self.ts → server/self.ts',
      'src/a.ts → src/b.ts → src/deep/c.ts → src/a.ts',
    ],
  );
  assert.deepEqual(circles(importGraph(root, ['server/tree/top.ts', 'server/tree/mid.ts', 'server/tree/leaf.ts'])), []);
});
