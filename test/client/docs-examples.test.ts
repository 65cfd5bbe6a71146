/**
 * The code of the docs runs as written: docs/client.md's and the README's paykit/client examples against the service,
 * docs/webhooks.md's handlers on a loopback server, the README's server rendering; every TypeScript block of
 * docs/client.md, the README and docs/adapters.md compiles against the package (its sources), and their Vue
 * components compile with Vue's compiler. (docs/adapters.md's Angular component needs Angular's compiler, which
 * test/package/published-package.test.ts runs on an app of its own; the generated-client block of the README is
 * test/server/api/openapi-generated-client.test.ts's.)
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, compileScript, compileTemplate } from 'vue/compiler-sfc';
import { startService, type TestService } from '../support/service.ts';
import { asModule, examples, root } from '../support/doc-examples.ts';
import { approvedMerchant, paidSale, partnerClient } from '../support/payments.ts';
import * as paykitClient from '../../client/index.ts';
import { REFUND_ERRORS } from '../../server/domain/refunds.ts';
import { sampleEventData } from '../../server/services/sample-events.ts';
import { shapeOf } from '../support/event-shape.ts';

const tsc = join(root, 'node_modules/typescript/bin/tsc');
const code = (blocks: { code: string }[]) => blocks.map((block) => block.code);

/**
 * The names each TypeScript block of a page supposes its reader has, declared before it: the block is then a module
 * of its own, compiled as written.
 */
const TYPED_BLOCKS: Record<string, { language: string; skip?: RegExp; declared?: string }> = {
  'README.md': {
    language: 'tsx',
    declared:
      "import type { RefObject } from 'react';\nimport type { TransactionsTableElement } from 'paykit/react';\ndeclare const table: RefObject<TransactionsTableElement | null>;\ndeclare const token: string | null;",
  },
  'docs/adapters.md': { language: 'ts|tsx', skip: /@angular\/core/ },
};

describe('the examples of the docs run as written, and their TypeScript compiles', () => {
  let service: TestService;
  let dir: string;
  const typed: string[] = [];
  before(async () => {
    service = await startService();
    dir = mkdtempSync(join(root, 'test/.tmp-docs-examples-'));
    // docs/client.md: block 1 makes `paykit`, the others use it; together they are one partner's script.
    const client = code(examples('docs/client.md'));
    assert.equal(client.length, 6, 'docs/client.md has six examples');
    const setup = client[0]!;
    const script = client.slice(1).join('\n');
    writeFileSync(
      join(dir, 'client-examples.ts'),
      asModule(
        [
          `${setup}\n${script}\nreturn { link, first, all, session_token, features, csv, available, pending, payouts, statements, settings };`,
        ],
        [],
        'merchant_key: string, transaction_id: string, console: { log(line: string): void }',
      ),
    );
    typed.push('client-examples.ts');
    // docs/webhooks.md: each handler is given its express app and what it hands the event to.
    const webhooks = code(examples('docs/webhooks.md'));
    assert.equal(webhooks.length, 3, 'docs/webhooks.md has three examples');
    writeFileSync(
      join(dir, 'webhook-examples.ts'),
      asModule(
        webhooks,
        ["import express from 'express';", "import type { Express } from 'express';"],
        'app: Express, refunded: (transaction: string, amount: number) => void, handle: (event: unknown) => void, fetch: typeof globalThis.fetch',
      ),
    );
    // The README's JavaScript: the payment check, server rendering, and paykit/client on a server with a webhook.
    const readme = code(examples('README.md', ['js']));
    assert.equal(readme.length, 3, 'the README has three JavaScript examples');
    writeFileSync(
      join(dir, 'readme-check.ts'),
      asModule(
        [`${readme[0]}\nreturn paid;`],
        ["import type { PaykitClient } from '../../client/index.ts';"],
        'paykit: PaykitClient, merchant_key: string, transaction_id: string',
      ),
    );
    writeFileSync(
      join(dir, 'readme-examples.ts'),
      asModule(
        [`${readme[1]}\nreturn widgets;`, `${readme[2]}\nreturn { pay_link, refund, event };`],
        [],
        'merchant_key: string, transaction_id: string, price: string, orderId: string, rawBody: string, req: { headers: Record<string, string> }',
      ),
    );
    // Every TypeScript block of the README and docs/adapters.md, each a module of its own.
    for (const [page, { language, skip, declared }] of Object.entries(TYPED_BLOCKS)) {
      examples(page, language.split('|'))
        .filter((block) => !skip?.test(block.code))
        .forEach((block, index) => {
          const file = `${page.replace(/\W/g, '-')}-${index + 1}.${block.language}`;
          writeFileSync(join(dir, file), `${declared ? `${declared}\n` : ''}${block.code}\nexport {};\n`);
          typed.push(file);
        });
    }
    // Fragments, as docs show them: an import shown for its name alone is no mistake.
    const tsconfig = {
      extends: join(root, 'tsconfig.json'),
      compilerOptions: { noUnusedLocals: false },
      files: typed,
      include: [],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    process.env['PAYKIT_CLIENT_ID'] = service.client.clientId;
    process.env['PAYKIT_CLIENT_SECRET'] = service.client.secretKey;
    process.env['PAYKIT_BASE_URL'] = service.baseUrl;
    process.env['PAYKIT_WEBHOOK_SECRET'] = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  });
  after(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the TypeScript of docs/client.md, the README and docs/adapters.md compiles against the package', () => {
    assert.equal(typed.length, 8, "docs/client.md as one, the README's React, and six of docs/adapters.md");
    const result = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], {
      encoding: 'utf8',
      cwd: root,
    });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  });

  test("the Vue components of the README and docs/adapters.md compile with Vue's compiler", () => {
    const components = [...examples('README.md', ['vue']), ...examples('docs/adapters.md', ['vue'])];
    assert.equal(components.length, 2);
    for (const [index, { code: source }] of components.entries()) {
      const { descriptor, errors } = parse(source, { filename: `Example${index}.vue` });
      assert.deepEqual(errors, []);
      const script = compileScript(descriptor, { id: `example-${index}` });
      const template = compileTemplate({
        source: descriptor.template!.content,
        filename: `Example${index}.vue`,
        id: `example-${index}`,
        compilerOptions: { bindingMetadata: script.bindings },
      });
      assert.deepEqual(template.errors, [], source);
      // Every component the template names is one it imports.
      for (const name of template.code.matchAll(/_resolveComponent\("(\w+)"\)/g))
        assert.fail(`${name[1]} is not imported`);
    }
  });

  test("docs/client.md runs as one script against the service; its error example reaches each branch with the service's message", async () => {
    const { example1 } = await import(pathToFileURL(join(dir, 'client-examples.ts')).href);
    const { merchantKey } = await approvedMerchant(service);
    const paykit = partnerClient(service);
    const said: string[] = [];
    const console = { log: (line: string) => said.push(line) };

    const sale = await paidSale(service, merchantKey, '10.00');
    const made = await example1(merchantKey, sale, console);
    assert.match(made.link.pay_link, /\/pay\//);
    assert.ok(made.first.items.some((item: { transaction_id: string }) => item.transaction_id === sale));
    assert.match(made.session_token, /\S/);
    assert.deepEqual(
      made.features,
      { refunds: true, voids: true, captures: false, export: true, receipts: false, payouts: false, disputes: false },
      'the features the token grants',
    );
    assert.equal(typeof made.csv, 'string');
    assert.deepEqual(
      [made.available, made.pending, made.payouts, made.statements, made.settings.interval],
      ['0.00', '9.41', [], [], 'weekly'],
      'the sale of 10.00 less its fee, pending',
    );
    assert.deepEqual(said, [], 'the refund of 5.00 of 10.00 went through');

    // 5.00 is more than the 5.00 - 1.00 left after the refund above and one more of 1.00; a sale refunded in full.
    await paykit.transactions.refund({ merchant_key: merchantKey, transaction_id: sale, amount: '1.00' });
    await example1(merchantKey, sale, console);
    const refunded = await paidSale(service, merchantKey, '5.00');
    await paykit.transactions.refund({ merchant_key: merchantKey, transaction_id: refunded, amount: '5.00' });
    await example1(merchantKey, refunded, console);
    assert.deepEqual(said, [REFUND_ERRORS.overRemaining, REFUND_ERRORS.alreadyRefunded]);
    // Anything else is thrown on.
    await assert.rejects(
      example1('mk_unknown', refunded, console),
      (error) =>
        error instanceof paykitClient.PaykitError &&
        !(error instanceof paykitClient.PaykitInvalidRequestError) &&
        !(error instanceof paykitClient.PaykitConflictError),
    );
  });

  test("the README's JavaScript runs: the payment check tells a paid sale from its refunds, paykit/client on a server, server rendering", async () => {
    const { example1: paymentCheck } = await import(pathToFileURL(join(dir, 'readme-check.ts')).href);
    const { example1: rendered, example2: onAServer } = await import(
      pathToFileURL(join(dir, 'readme-examples.ts')).href
    );
    const { merchantKey } = await approvedMerchant(service);
    const paykit = partnerClient(service);
    // The check: order-1002's sale of 25.00 passes; a refund of it (same order id) does not; once refunded, neither.
    const { pay_link } = await paykit.payments.request({
      merchant_key: merchantKey,
      amount: '25.00',
      order_id: 'order-1002',
    });
    const sale = (
      await paykit.sandbox.pay({
        pay_link,
        method: 'card',
        card_number: '4242424242424242',
        exp_month: 12,
        exp_year: 2035,
        cvc: '123',
      })
    ).transaction_id;
    const check = (transaction: string) => paymentCheck(paykit, merchantKey, transaction);
    assert.equal(await check(sale), true, 'the paid sale');
    const refund = await paykit.transactions.refund({
      merchant_key: merchantKey,
      transaction_id: sale,
      amount: '25.00',
    });
    assert.equal(await check(refund.transaction_id), false, 'its refund, which has its order id');
    assert.equal(await check(sale), false, 'the sale refunded in full');

    const widgets: string = await rendered(merchantKey, '', '25.00', 'order-1002', '', { headers: {} });
    assert.match(widgets, /<pay-button\s+amount="25\.00" order-id="order-1002">/);
    assert.match(widgets, /Pay \$25\.00/);
    assert.match(widgets, /<template [^>]*shadowrootmode="open"/);

    // paykit/client as the README makes it, on the sandbox's default address, here the test service's; as a partner
    // of its own (docs/client.md's example takes the same Idempotency-Key for its own request).
    const partner = await service.newClient('README partner');
    const auth = { id: partner.clientId, secret: partner.secretKey };
    const { merchantKey: ownMerchant } = await approvedMerchant(service, auth);
    const realFetch = globalThis.fetch;
    const toService: typeof fetch = (url, init) =>
      realFetch(String(url).replace('http://localhost:4010', service.baseUrl), init);
    globalThis.fetch = toService;
    const env = { id: process.env['PAYKIT_CLIENT_ID'], secret: process.env['PAYKIT_CLIENT_SECRET'] };
    [process.env['PAYKIT_CLIENT_ID'], process.env['PAYKIT_CLIENT_SECRET']] = [auth.id, auth.secret];
    try {
      const delivery = paykitClient.signTestWebhook(
        { event_type: 'payment.refund', data: sampleEventData('payment.refund', 'm_1', new Date()) as never },
        process.env['PAYKIT_WEBHOOK_SECRET']!,
      );
      const { pay_link: tenLink } = await partnerClient(service, auth).payments.request({
        merchant_key: ownMerchant,
        amount: '10.00',
        order_id: 'order-ten',
      });
      const paidTen = (
        await partnerClient(service, auth).sandbox.pay({
          pay_link: tenLink,
          method: 'card',
          card_number: '4242424242424242',
          exp_month: 12,
          exp_year: 2035,
          cvc: '123',
        })
      ).transaction_id;
      const made = await onAServer(ownMerchant, paidTen, '', '', delivery.body, { headers: delivery.headers });
      assert.match(made.pay_link, /\/pay\//);
      assert.deepEqual([made.refund.type, made.refund.amount, made.refund.linked_txn_id], ['Refund', 5, paidTen]);
      assert.equal(made.event.event_type, 'payment.refund');
    } finally {
      globalThis.fetch = realFetch;
      [process.env['PAYKIT_CLIENT_ID'], process.env['PAYKIT_CLIENT_SECRET']] = [env.id, env.secret];
    }
  });

  test("docs/webhooks.md's handlers, on a real loopback server, take the test delivery its signTestWebhook example sends", async () => {
    const { example1, example2, example3 } = await import(pathToFileURL(join(dir, 'webhook-examples.ts')).href);
    const express = (await import('express')).default;
    const servers: Server[] = [];
    try {
      for (const [handler, expects] of [
        [example1, 'refunded'],
        [example2, 'handled'],
      ] as const) {
        const app = express();
        const heard: unknown[] = [];
        await handler(
          app,
          (transaction: string, amount: number) => heard.push({ transaction, amount }),
          (event: unknown) => heard.push(event),
          fetch,
        );
        const server = await new Promise<Server>((resolve) => {
          const s = app.listen(0, '127.0.0.1', () => resolve(s));
        });
        servers.push(server);
        const port = (server.address() as { port: number }).port;
        // The example posts to its handler at port 3000; here the handler listens on a free port.
        const statuses: number[] = [];
        const toHandler: typeof fetch = async (url, init) => {
          const answer = await fetch(String(url).replace('127.0.0.1:3000', `127.0.0.1:${port}`), init);
          statuses.push(answer.status);
          return answer;
        };
        await example3(
          app,
          () => {},
          () => {},
          toHandler,
        );
        assert.deepEqual(statuses, [204], 'the handler verified the delivery');
        if (expects === 'refunded')
          assert.deepEqual(heard, [{ transaction: 'txn_1', amount: 5 }], 'the refund is booked against its sale');
        else {
          // The example's event is one the service could send: a refund of the same shape as the sandbox's, whose
          // ids name what a real delivery's do (test/server/webhooks/event-samples.test.ts holds those to real ones).
          const event = heard[0] as { event_type: 'payment.refund'; data: Record<string, unknown> };
          assert.equal(event.event_type, 'payment.refund');
          assert.deepEqual(shapeOf(event.data), shapeOf(sampleEventData('payment.refund', 'm_1', new Date())));
        }
      }
    } finally {
      for (const server of servers) server.close();
    }
  });
});
