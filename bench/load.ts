import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  /** A fixed body, or one made for each request (e.g. a unique order id). */
  body?: string | (() => string);
  headers?: Record<string, string>;
  /** Each request gets a fresh Idempotency-Key header. */
  keyed?: boolean | undefined;
  /** Seconds; every load is bounded in time. */
  duration?: number;
  connections?: number;
  /** `WARM_UP_SECONDS` of load before the measured run, not counted; later rounds of the same load skip it. */
  warmUp?: boolean;
}

/** Until V8 has compiled a call's path and its caches are warm, it costs more: the first seconds are not counted. */
export const WARM_UP_SECONDS = 3;

/** Loads one loopback URL for a fixed time, after a short warm-up that is not counted. */
export async function load({
  url,
  method = 'GET',
  body,
  headers = {},
  keyed,
  duration = 5,
  connections = 50,
  warmUp = true,
}: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url))
    throw new Error(`benchmarks only send traffic to loopback, not ${url}`);
  const options = { url, method, headers, connections, pipelining: 1, ...perRequest(body, keyed) };
  if (warmUp) await autocannon({ ...options, duration: WARM_UP_SECONDS });
  const result = await autocannon({ ...options, duration });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** autocannon's options for what changes from request to request: a body made for each, a fresh Idempotency-Key. */
function perRequest(body: string | (() => string) | undefined, keyed = false) {
  if (typeof body !== 'function' && !keyed) return { body };
  const setupRequest = (request: autocannon.Request) => ({
    ...request,
    ...(typeof body === 'function' ? { body: body() } : {}),
    ...(keyed ? { headers: { ...request.headers, 'idempotency-key': randomUUID() } } : {}),
  });
  return { ...(typeof body === 'function' ? {} : { body }), requests: [{ setupRequest }] };
}
