import { createServer, request as forward, type IncomingHttpHeaders, type Server } from 'node:http';
import { once } from 'node:events';

/** What the proxy does to one request. */
export type Fault =
  /** Drops the connection before the service sees the request. */
  | { drop: 'before' }
  /** Lets the service answer, then drops the connection: the service did the work, the caller never hears of it. */
  | { drop: 'after' }
  /** Answers in the service's stead, with the envelope. */
  | { status: number; retryAfter?: string; code?: string }
  /** Waits before passing the request on. */
  | { delayMs: number };

export interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  at: number;
}

/**
 * A loopback proxy in front of a real service that fails on purpose: each request takes the next scripted fault
 * (and passes straight through when none is left), so a client's retries meet real failures and a real service.
 */
export class FaultProxy {
  readonly seen: Seen[] = [];
  faults: Fault[] = [];
  private server: Server | undefined;
  url = '';

  private readonly target: string;

  constructor(target: string) {
    this.target = target;
  }

  async start(): Promise<this> {
    const target = new URL(this.target);
    this.server = createServer((request, response) => {
      this.seen.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        at: Date.now(),
      });
      const fault = this.faults.shift();
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        if (fault && 'drop' in fault && fault.drop === 'before') return request.socket.destroy();
        if (fault && 'status' in fault) {
          const body = JSON.stringify({
            result: false,
            message: `Injected ${fault.status}.`,
            code: fault.code ?? 'service_error',
          });
          response.writeHead(fault.status, {
            'content-type': 'application/json',
            ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}),
          });
          return response.end(body);
        }
        if (fault && 'delayMs' in fault) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        const upstream = forward(
          {
            host: target.hostname,
            port: target.port,
            method: request.method,
            path: request.url,
            headers: { ...request.headers, host: target.host },
          },
          (answer) => {
            const body: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => body.push(chunk));
            answer.on('end', () => {
              if (fault && 'drop' in fault && fault.drop === 'after') return request.socket.destroy();
              response.writeHead(answer.statusCode ?? 502, answer.headers);
              response.end(Buffer.concat(body));
            });
          },
        );
        upstream.on('error', () => request.socket.destroy());
        upstream.end(Buffer.concat(chunks));
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}
