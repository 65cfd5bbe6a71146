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
  /** Seconds; every load is bounded in time. */
  duration?: number;
  connections?: number;
  /** Called between the warm-up and the measured run (e.g. to reset the service's counters). */
  afterWarmUp?: () => Promise<void>;
}

/** Loads one loopback URL for a fixed time, after a short warm-up that is not counted. */
export async function load({ url, method = 'GET', body, headers = {}, duration = 5, connections = 50, afterWarmUp }: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`benchmarks only send traffic to loopback, not ${url}`);
  const options = {
    url, method, headers, connections, pipelining: 1,
    ...(typeof body === 'function' ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: body() }) }] } : { body }),
  };
  await autocannon({ ...options, duration: 1 });
  await afterWarmUp?.();
  const result = await autocannon({ ...options, duration });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
