import { PaykitError } from './errors.ts';

/** Options every POST takes. */
export interface RequestOptions {
  /**
   * Sent as the `Idempotency-Key` header: a retry with the same key and the same request gets the first answer
   * again and causes nothing twice (kept 24 hours). Nothing is sent when not given.
   */
  idempotencyKey?: string;
}

export type QueryValue = string | number | boolean | undefined;

export interface Call {
  method: 'GET' | 'POST' | 'PUT';
  /** Below `/api/v1`, starting with `/`; path parameters already encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  form?: Record<string, string | undefined>;
  idempotencyKey?: string;
}

/** An answer's parsed body: the interface's envelope, `{result|status, message, data?, …}`. */
export type Envelope = Record<string, unknown> & { message?: unknown };

type Fetch = typeof fetch;

/** Seconds from a `Retry-After` header: delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function isTimeout(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'TimeoutError';
}

/** One HTTP exchange with the service: credentials, timeout, body encoding and failures as `PaykitError`. */
export class Transport {
  private readonly send: Fetch;

  constructor(
    readonly apiUrl: string,
    private readonly authorization: string,
    readonly timeoutMs: number,
    fetchImpl: Fetch | undefined,
  ) {
    const chosen = fetchImpl ?? globalThis.fetch;
    if (typeof chosen !== 'function') throw new Error('PaykitClient needs fetch: run on Node 18 or later, or pass options.fetch.');
    // Called as a plain function: some fetch implementations refuse another `this`.
    this.send = (input, init) => chosen(input, init);
  }

  async call(call: Call): Promise<Envelope> {
    const url = new URL(this.apiUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json', authorization: this.authorization };
    let body: string | undefined;
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers['content-type'] = 'application/json';
    } else if (call.form !== undefined) {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(call.form)) if (value !== undefined) form.set(name, value);
      body = form.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;

    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await this.send(url, { method: call.method, headers, body, signal });
      text = await response.text();
    } catch (error) {
      if (isTimeout(error) || signal.aborted) {
        throw new PaykitError(0, `No answer from Paykit within ${this.timeoutMs} ms`, { cause: error });
      }
      throw new PaykitError(0, `Could not reach Paykit at ${url.origin}: ${describeNetworkError(error)}`, { cause: error });
    }

    let parsed: unknown;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    const envelope = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Envelope) : undefined;
    const message = typeof envelope?.message === 'string' ? envelope.message : undefined;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));

    if (!response.ok) {
      throw new PaykitError(response.status, message ?? `Paykit answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} to ${call.method} ${url.pathname}.`, {
        body: parsed,
        ...(retryAfter === undefined ? {} : { retryAfter }),
      });
    }
    if (!envelope) {
      throw new PaykitError(response.status, `Paykit answered ${call.method} ${url.pathname} with a body that is not a JSON object.`, { body: parsed });
    }
    if (envelope.result === false || envelope.status === false) {
      throw new PaykitError(response.status, message ?? `Paykit refused ${call.method} ${url.pathname}.`, { body: parsed });
    }
    return envelope;
  }
}
