import { PaykitError, paykitError } from './errors.ts';
import { departure } from './answer-check.ts';
import { ANSWER_SHAPES, type AnswerName } from './answer-shapes.ts';
import { retryDelayMs, shouldRetry } from './retries.ts';

/** Options every call takes. */
export interface RequestOptions {
  /**
   * Sent as the `Idempotency-Key` header: a retry with the same key and the same request gets the first answer
   * again and causes nothing twice (kept 24 hours). When not given and retries are on, the client makes one per
   * call, so that its own retries of a POST have one effect.
   */
  idempotencyKey?: string;
  /** How long one attempt may take, in milliseconds; the client's `timeoutMs` when not given. */
  timeout?: number;
  /** Abandons the call (and its retries): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Retries of this call after a network error, a 409 in progress, a 429 or a 5xx; the client's `maxRetries` when not given. */
  maxRetries?: number;
}

type QueryValue = string | number | boolean | undefined;

export interface Call extends RequestOptions {
  method: 'GET' | 'POST' | 'PUT';
  /** Below `/api/v1`, starting with `/`; path parameters already encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  form?: Record<string, string | undefined>;
  /** The schema the answer is typed from, checked in development. */
  answer?: AnswerName;
  /** The media type asked for; JSON unless said. */
  accept?: string;
}

/** An answer's parsed body: the interface's envelope, `{result|status, message, data?, …}`. */
export type Envelope = Record<string, unknown> & { message?: unknown };

type Fetch = typeof fetch;

export interface TransportOptions {
  apiUrl: string;
  authorization: string;
  timeoutMs: number;
  maxRetries: number;
  /** Check every answer against its schema's shape (development); off in production. */
  validateAnswers: boolean;
  fetch: Fetch | undefined;
  /** For tests: the pause between attempts, and the randomness of its jitter. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  random?: () => number;
}

/** Seconds from a `Retry-After` header: delay-seconds or an HTTP date. */
function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
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

const pause = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });

/**
 * The HTTP exchanges with the service: credentials, timeouts, body encoding, failures as `PaykitError`s of their
 * kind, and retries with exponential backoff and jitter (honouring `Retry-After`). A POST that may be retried
 * carries one Idempotency-Key for all its attempts, so the service does it once.
 */
export class Transport {
  private readonly send: Fetch;
  private readonly sleep: NonNullable<TransportOptions['sleep']>;
  private readonly random: () => number;

  private readonly options: TransportOptions;

  constructor(options: TransportOptions) {
    this.options = options;
    const chosen = options.fetch ?? globalThis.fetch;
    if (typeof chosen !== 'function')
      throw new Error('PaykitClient needs fetch: run on Node 18 or later, or pass options.fetch.');
    // Called as a plain function: some fetch implementations refuse another `this`.
    this.send = (input, init) => chosen(input, init);
    this.sleep = options.sleep ?? pause;
    this.random = options.random ?? Math.random;
  }

  get apiUrl(): string {
    return this.options.apiUrl;
  }

  async call(call: Call): Promise<Envelope> {
    return this.retrying(call, (each) => this.attempt(each));
  }

  /** A call whose success is not an envelope but text (a CSV export); a refusal is still the envelope's error. */
  async callText(call: Call): Promise<string> {
    return this.retrying(call, async (each) => {
      const { response, text, url } = await this.exchange(each);
      if (!response.ok) throw refusalOf(response, text, each, url);
      return text;
    });
  }

  private async retrying<T>(call: Call, run: (call: Call) => Promise<T>): Promise<T> {
    const maxRetries = call.maxRetries ?? this.options.maxRetries;
    const idempotencyKey =
      call.idempotencyKey ?? (call.method === 'POST' && maxRetries > 0 ? `paykit-${crypto.randomUUID()}` : undefined);
    for (let attempt = 0; ; attempt++) {
      try {
        return await run({ ...call, idempotencyKey });
      } catch (error) {
        if (call.signal?.aborted) throw call.signal.reason;
        const delay =
          attempt < maxRetries && error instanceof PaykitError && shouldRetry(error)
            ? retryDelayMs(attempt, error.retryAfter, this.random)
            : undefined;
        if (delay === undefined) throw error;
        await this.sleep(delay, call.signal);
      }
    }
  }

  /** One request and its answer's text; a network failure or timeout is a PaykitError. */
  private async exchange(call: Call): Promise<{ response: Response; text: string; url: URL }> {
    const url = new URL(this.options.apiUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      accept: call.accept ?? 'application/json',
      authorization: this.options.authorization,
    };
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

    const timeoutMs = call.timeout ?? this.options.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await this.send(url, { method: call.method, headers, body, signal });
      text = await response.text();
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      if (timeout.aborted) throw paykitError(0, `No answer from Paykit within ${timeoutMs} ms`, { cause: error });
      throw paykitError(0, `Could not reach Paykit at ${url.origin}: ${describeNetworkError(error)}`, { cause: error });
    }
    return { response, text, url };
  }

  private async attempt(call: Call): Promise<Envelope> {
    const { response, text, url } = await this.exchange(call);
    let parsed: unknown;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    const envelope =
      parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Envelope) : undefined;
    const message = typeof envelope?.message === 'string' ? envelope.message : undefined;

    if (!response.ok) throw refusalOf(response, text, call, url);
    if (!envelope) {
      throw paykitError(
        response.status,
        `Paykit answered ${call.method} ${url.pathname} with a body that is not a JSON object.`,
        { body: parsed, code: 'unexpected_answer' },
      );
    }
    if (envelope.result === false || envelope.status === false) {
      throw paykitError(response.status, message ?? `Paykit refused ${call.method} ${url.pathname}.`, { body: parsed });
    }
    if (this.options.validateAnswers && call.answer) {
      const found = departure(envelope, ANSWER_SHAPES[call.answer]);
      if (found) {
        throw paykitError(
          response.status,
          `Paykit answered ${call.method} ${url.pathname} with something the client is not typed for: ${found}. Update paykit, or the service.`,
          {
            body: parsed,
            code: 'unexpected_answer',
          },
        );
      }
    }
    return envelope;
  }
}

/** The error of an answer that is not a 2xx: the envelope's message when there is one, and `Retry-After`. */
function refusalOf(response: Response, text: string, call: Call, url: URL): PaykitError {
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const envelope =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Envelope) : undefined;
  const message = typeof envelope?.message === 'string' ? envelope.message : undefined;
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  return paykitError(
    response.status,
    message ??
      `Paykit answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} to ${call.method} ${url.pathname}.`,
    {
      body: parsed,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    },
  );
}
