import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { once } from 'node:events';
import { Webhook } from 'standardwebhooks';

export interface Receipt {
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: { event_type: string; data: Record<string, unknown> };
  receivedAt: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Milliseconds before answering. */
  delayMs?: number;
}

/** A partner's webhook endpoint on a loopback port: records every delivery and answers as told. */
export class Receiver {
  readonly receipts: Receipt[] = [];
  /** Answers to give, in order; when empty, `fallback`. */
  replies: Reply[] = [];
  fallback: Reply = { status: 200 };
  private server: Server | undefined;
  private waiters: (() => void)[] = [];
  /** Answers still waiting for their delay; cleared on stop, so a hanging answer does not keep the process alive. */
  private readonly pending = new Set<NodeJS.Timeout>();
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.receipts.push({
          id: String(request.headers['webhook-id']),
          headers: request.headers,
          body,
          event: JSON.parse(body),
          receivedAt: Date.now(),
        });
        for (const wake of this.waiters.splice(0)) wake();
        const reply = this.replies.shift() ?? this.fallback;
        const timer = setTimeout(() => {
          this.pending.delete(timer);
          if (response.destroyed) return;
          response.writeHead(reply.status, reply.headers).end('ok');
        }, reply.delayMs ?? 0);
        this.pending.add(timer);
      });
    });
    this.server.keepAliveTimeout = 5000;
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
    return this;
  }

  /** Waits until `predicate` holds of the receipts, or fails after `timeoutMs`. */
  async waitFor(predicate: (receipts: Receipt[]) => boolean, timeoutMs = 10_000): Promise<Receipt[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.receipts)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `the receiver did not see the expected deliveries within ${timeoutMs} ms (${this.receipts.length} received)`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.receipts;
  }

  /** The first delivery of an event of `type` whose data has `merchant_id`; deliveries of other events may arrive in between. */
  async waitForEvent(type: string, merchantId: string): Promise<Receipt> {
    const matches = (r: Receipt) => r.event.event_type === type && r.event.data.merchant_id === merchantId;
    return (await this.waitFor((all) => all.some(matches))).find(matches)!;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}

/** Verifies a delivery as a partner would, with the Standard Webhooks reference implementation. */
export function verify(secret: string, receipt: Receipt): unknown {
  return new Webhook(secret.replace(/^whsec_/, '')).verify(receipt.body, {
    'webhook-id': String(receipt.headers['webhook-id']),
    'webhook-timestamp': String(receipt.headers['webhook-timestamp']),
    'webhook-signature': String(receipt.headers['webhook-signature']),
  });
}
