/** One-time links, pay links and session tokens sit in paths; they are bearer secrets, so the log keeps only their kind. */
export function redactTokens(path: string): string {
  return path.replace(/\b(obl|ost|pl|tds)_[\w-]+/g, '$1_…');
}

/**
 * Merchant keys may travel in query strings and secrets in headers: the log names method, path and caller only.
 */
export function requestLogger(level: string) {
  return {
    level,
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        path: redactTokens(request.url.split('?')[0] ?? ''),
        remoteAddress: request.ip,
      }),
    },
  };
}
