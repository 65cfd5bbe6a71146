import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startService, type TestService } from '../support/service.ts';
import { approvedMerchant, paidSale, partnerClient } from '../support/payments.ts';
import * as paykitClient from '../../client/index.ts';
import { REFUND_ERRORS } from '../../server/domain/refunds.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** Every fenced TypeScript or JavaScript block of a page, as written there (a block indented in a list, unindented). */
function examples(page: string): string[] {
  const text = readFileSync(join(root, page), 'utf8');
  return [...text.matchAll(/^( *)```(?:ts|js)\n([\s\S]*?)^\1```/gm)].map(([, indent, code]) =>
    code!.split('\n').map((line) => line.slice(indent!.length)).join('\n'));
}

/**
 * A page's examples as one module: their imports on top, and each example the body of an exported function
 * `example{n}` taking the names the page's prose supposes (`parameters`), so each runs as written.
 */
function asModule(blocks: string[], header: string[], parameters: string): string {
  const imports = new Set(header);
  const bodies = blocks.map((block, index) => {
    const lines = block.split('\n');
    // paykit/client as the tests load it: its source (the published name resolves to the built dist/).
    for (const line of lines) if (line.startsWith('import ')) imports.add(line.replace("'paykit/client'", "'../../client/index.ts'"));
    const body = lines.filter((line) => !line.startsWith('import ')).join('\n');
    return `export async function example${index + 1}(${parameters}) {\n${body}\n}`;
  });
  return [...imports, '', ...bodies, ''].join('\n');
}

describe('the examples of docs/client.md and docs/webhooks.md run as written (and the TypeScript ones compile)', () => {
  let service: TestService;
  let dir: string;
  before(async () => {
    service = await startService();
    dir = mkdtempSync(join(root, 'test/.tmp-docs-examples-'));
    // docs/client.md: block 1 makes `paykit`, the others use it; together they are one partner's script.
    const client = examples('docs/client.md');
    assert.equal(client.length, 6, 'docs/client.md has six examples');
    const setup = client[0]!;
    const script = client.slice(1).join('\n');
    writeFileSync(join(dir, 'client-examples.ts'), asModule(
      [`${setup}\n${script}\nreturn { link, first, all, session_token, csv, available, pending, payouts, statements, settings };`],
      [],
      'merchant_key: string, transaction_id: string, console: { log(line: string): void }',
    ));
    // docs/webhooks.md: each handler is given its express app and what it hands the event to.
    const webhooks = examples('docs/webhooks.md');
    assert.equal(webhooks.length, 3, 'docs/webhooks.md has three examples');
    writeFileSync(join(dir, 'webhook-examples.ts'), asModule(
      webhooks,
      ["import express from 'express';", "import type { Express } from 'express';"],
      'app: Express, refunded: (transaction: string, amount: number) => void, handle: (event: unknown) => void, fetch: typeof globalThis.fetch',
    ));
    // docs/webhooks.md's examples are JavaScript: they are run, not type-checked.
    const tsconfig = { extends: join(root, 'tsconfig.json'), files: ['client-examples.ts'], include: [] };
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

  test("docs/client.md's TypeScript compiles against paykit/client", () => {
    const result = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { encoding: 'utf8', cwd: root });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
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
    assert.equal(typeof made.csv, 'string');
    assert.deepEqual([made.available, made.pending, made.payouts, made.statements, made.settings.interval], ['0.00', '9.41', [], [], 'weekly'], 'the sale of 10.00 less its fee, pending');
    assert.deepEqual(said, [], 'the refund of 5.00 of 10.00 went through');

    // 5.00 is more than the 5.00 - 1.00 left after the refund above and one more of 1.00; a sale refunded in full.
    await paykit.transactions.refund({ merchant_key: merchantKey, transaction_id: sale, amount: '1.00' });
    await example1(merchantKey, sale, console);
    const refunded = await paidSale(service, merchantKey, '5.00');
    await paykit.transactions.refund({ merchant_key: merchantKey, transaction_id: refunded, amount: '5.00' });
    await example1(merchantKey, refunded, console);
    assert.deepEqual(said, [REFUND_ERRORS.overRemaining, REFUND_ERRORS.alreadyRefunded]);
    // Anything else is thrown on.
    await assert.rejects(example1('mk_unknown', refunded, console), (error) =>
      error instanceof paykitClient.PaykitError && !(error instanceof paykitClient.PaykitInvalidRequestError) && !(error instanceof paykitClient.PaykitConflictError));
  });

  test("docs/webhooks.md's handlers, on a real loopback server, take the test delivery its signTestWebhook example sends", async () => {
    const { example1, example2, example3 } = await import(pathToFileURL(join(dir, 'webhook-examples.ts')).href);
    const express = (await import('express')).default;
    const servers: Server[] = [];
    try {
      for (const [handler, expects] of [[example1, 'refunded'], [example2, 'handled']] as const) {
        const app = express();
        const heard: unknown[] = [];
        await handler(app, (transaction: string, amount: number) => heard.push({ transaction, amount }), (event: unknown) => heard.push(event), fetch);
        const server = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
        servers.push(server);
        const port = (server.address() as { port: number }).port;
        // The example posts to its handler at port 3000; here the handler listens on a free port.
        const statuses: number[] = [];
        const toHandler: typeof fetch = async (url, init) => {
          const answer = await fetch(String(url).replace('127.0.0.1:3000', `127.0.0.1:${port}`), init);
          statuses.push(answer.status);
          return answer;
        };
        await example3(app, () => {}, () => {}, toHandler);
        assert.deepEqual(statuses, [204], 'the handler verified the delivery');
        if (expects === 'refunded') assert.deepEqual(heard, [{ transaction: 'txn_1', amount: 5 }]);
        else assert.deepEqual((heard[0] as { event_type: string }).event_type, 'payment.refund');
      }
    } finally {
      for (const server of servers) server.close();
    }
  });
});
