import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from './url-guard.ts';

interface DeliveryResult {
  statusCode?: number;
  /** Set when no HTTP answer came: a timeout, a refused connection, a blocked address. */
  error?: string;
  retryAfter?: string;
  durationMs: number;
}

export interface Deliverer {
  post(url: string, headers: Record<string, string>, body: string): Promise<DeliveryResult>;
  close(): void;
}

/**
 * Refuses private addresses when the connection is made, not only when the URL was registered: a host name
 * can be re-pointed afterwards (DNS rebinding).
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const usable = addresses.find((a) => !isPrivateAddress(a.address));
    if (!usable || addresses.some((a) => isPrivateAddress(a.address))) {
      return callback(
        Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }),
        '',
        0,
      );
    }
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [usable]);
    callback(null, usable.address, usable.family);
  });
};

/** Posts deliveries over kept-alive connections, each bounded by `timeoutMs`. */
export function createDeliverer(options: { timeoutMs: number; allowPrivate: boolean; maxSockets?: number }): Deliverer {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 64,
    ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
  };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  return {
    post(url, headers, body) {
      const started = performance.now();
      const target = new URL(url);
      // A literal address is connected to without any lookup, so the lookup's check never sees it.
      const literal = target.hostname.replace(/^\[|\]$/g, '');
      if (!options.allowPrivate && isIP(literal) && isPrivateAddress(literal)) {
        return Promise.resolve({ error: `${literal} is a private address: not delivered`, durationMs: 0 });
      }
      const transport = target.protocol === 'https:' ? https : http;
      return new Promise<DeliveryResult>((resolve) => {
        let deadline: NodeJS.Timeout | undefined;
        const finish = (result: Omit<DeliveryResult, 'durationMs'>) => {
          clearTimeout(deadline);
          resolve({ ...result, durationMs: Math.round(performance.now() - started) });
        };
        const request = transport.request(
          target,
          {
            method: 'POST',
            agent: agents[target.protocol as 'http:' | 'https:'],
            headers: {
              ...headers,
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
              'user-agent': 'Paykit-Webhooks/1',
            },
          },
          (response) => {
            // The answer's body is not needed; reading it lets the connection be reused.
            response.resume();
            response.on('end', () =>
              finish({ statusCode: response.statusCode, retryAfter: response.headers['retry-after'] }),
            );
            response.on('error', (error) => finish({ statusCode: response.statusCode, error: error.message }));
          },
        );
        // A whole-delivery deadline: a receiver that answers byte by byte cannot hold a delivery forever.
        deadline = setTimeout(
          () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
          options.timeoutMs,
        );
        request.on('error', (error) => finish({ error: error.message }));
        request.end(body);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
