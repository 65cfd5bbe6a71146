import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { mainThreadCpuMs, processCpuMs } from './process-cpu.ts';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** CPU time of the process `cpuOf` named, per request of the measured run: steadier than throughput on a busy machine. */
  cpuUsPerRequest?: number | undefined;
  /**
   * The share of the measured run's time that the serving process's event loop (its main thread) was running, and
   * that the load generator (this process) was: the one near 100% is what bounds the throughput.
   */
  eventLoopBusy?: number | undefined;
  loadGeneratorBusy?: number | undefined;
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
  /** Called between the warm-up and the measured run (e.g. to reset the service's counters). */
  afterWarmUp?: () => Promise<void>;
  /** The serving process, whose CPU time per request is measured too. */
  cpuOf?: number | undefined;
}

/**
 * Until V8 has compiled a call's path and its caches are warm, it costs more: the first write of a service measured
 * second by second settled only after a few seconds (docs/performance.md, "Ninth round").
 */
export const WARM_UP_SECONDS = 3;

/** Loads one loopback URL for a fixed time, after a short warm-up that is not counted. */
export async function load({ url, method = 'GET', body, headers = {}, keyed, duration = 5, connections = 50, warmUp = true, afterWarmUp, cpuOf }: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`benchmarks only send traffic to loopback, not ${url}`);
  const options = { url, method, headers, connections, pipelining: 1, ...perRequest(body, keyed) };
  if (warmUp) await autocannon({ ...options, duration: WARM_UP_SECONDS });
  await afterWarmUp?.();
  const cpuBefore = cpuOf === undefined ? 0 : processCpuMs(cpuOf);
  const loopBefore = cpuOf === undefined ? 0 : mainThreadCpuMs(cpuOf);
  const generatorBefore = process.cpuUsage();
  const startedAt = performance.now();
  const result = await autocannon({ ...options, duration });
  const elapsedMs = performance.now() - startedAt;
  const generator = process.cpuUsage(generatorBefore);
  const cpuUsPerRequest = cpuOf === undefined ? undefined : ((processCpuMs(cpuOf) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  return {
    cpuUsPerRequest,
    eventLoopBusy: cpuOf === undefined ? undefined : (mainThreadCpuMs(cpuOf) - loopBefore) / elapsedMs,
    loadGeneratorBusy: (generator.user + generator.system) / 1000 / elapsedMs,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** autocannon's options for what changes from request to request: a body made for each, a fresh Idempotency-Key. */
export function perRequest(body: string | (() => string) | undefined, keyed = false) {
  if (typeof body !== 'function' && !keyed) return { body };
  const setupRequest = (request: autocannon.Request) => ({
    ...request,
    ...(typeof body === 'function' ? { body: body() } : {}),
    ...(keyed ? { headers: { ...request.headers, 'idempotency-key': randomUUID() } } : {}),
  });
  return { ...(typeof body === 'function' ? {} : { body }), requests: [{ setupRequest }] };
}
