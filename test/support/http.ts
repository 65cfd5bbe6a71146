import { request as httpRequest } from 'node:http';

export interface Answer<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
  /** The body's bytes as they came (compressed, when the answer says so). */
  bytes: Buffer;
}

export interface SendOptions {
  /** A JSON body (any method, GET included, as the interface documents). */
  json?: unknown;
  /** An application/x-www-form-urlencoded body. */
  form?: Record<string, string>;
  /** A raw body with its own content-type header (bytes, for bodies that are not UTF-8). */
  raw?: string | Buffer;
  auth?: { id: string; secret: string } | null;
  headers?: Record<string, string>;
}

/**
 * One HTTP request over loopback with node:http, which (unlike fetch) can send a body with GET.
 */
export function send(baseUrl: string, method: string, path: string, options: SendOptions = {}): Promise<Answer> {
  const url = new URL(path, baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | Buffer | undefined;
  if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  } else if (options.form) {
    payload = new URLSearchParams(options.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (options.raw !== undefined) {
    payload = options.raw;
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  if (options.auth)
    headers.authorization = `Basic ${Buffer.from(`${options.auth.id}:${options.auth.secret}`).toString('base64')}`;

  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        let body: unknown = text;
        if (String(res.headers['content-type'] ?? '').includes('json') && text && !res.headers['content-encoding'])
          body = JSON.parse(text);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, bytes });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}
