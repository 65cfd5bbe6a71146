import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page } from '../../views/layout.ts';
import { sendFile, type ServedFile } from '../../static/served-file.ts';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Pages need no script, frame nobody but us, and may hold secrets (the portal), so nothing caches them. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export interface PagePolicy {
  /** A page origin that may show this page in a frame besides ours (the pay button's dialog). */
  frameOrigin?: string | undefined;
  /** Allows the page's one inline script (it reports a payment's outcome to the opener). */
  scriptNonce?: string | undefined;
  /**
   * The API reference: its renderer's script from this origin, which styles itself with inline styles, draws icons
   * as data: images, and sends "try it" requests to this origin.
   */
  renderer?: boolean;
}

function contentSecurityPolicy({ frameOrigin, scriptNonce, renderer }: PagePolicy = {}): string {
  const directives = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "form-action 'self'",
    `frame-ancestors 'self'${frameOrigin ? ` ${frameOrigin}` : ''}`,
    "base-uri 'none'",
    ...(scriptNonce ? [`script-src 'nonce-${scriptNonce}'`] : []),
    ...(renderer ? ["script-src 'self'", "connect-src 'self'", "font-src 'self' data:"] : []),
  ];
  return directives.join('; ');
}

/**
 * Sends a hosted page, compressed when the browser takes it (brotli at a middle quality, in the thread pool: a pay
 * page arrives in well under half its bytes, which a phone on a slow network feels).
 */
export async function sendPage(
  reply: FastifyReply,
  page: Page,
  policy: PagePolicy = {},
  status = page.status,
): Promise<FastifyReply> {
  reply
    .code(status)
    .headers({ ...PAGE_HEADERS, 'content-security-policy': contentSecurityPolicy(policy), vary: 'Accept-Encoding' });
  const encoding = negotiate(reply.request.headers['accept-encoding'] ?? 'identity', ['br', 'gzip', 'identity']);
  if (encoding !== 'br' && encoding !== 'gzip') return reply.send(page.html);
  const body =
    encoding === 'br'
      ? await brotli(page.html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
      : await gzipped(page.html);
  return reply.header('content-encoding', encoding).send(body);
}

/**
 * Sends a page that is the same for every reader (the API reference), compressed once: its ETag lets a browser keep
 * it, asking each time whether it changed.
 */
export function sendSamePage(
  request: FastifyRequest,
  reply: FastifyReply,
  file: ServedFile,
  policy: PagePolicy = {},
): FastifyReply {
  reply.headers({ ...PAGE_HEADERS, 'content-security-policy': contentSecurityPolicy(policy) });
  return sendFile(request, reply, file, { contentType: PAGE_HEADERS['content-type'], cacheControl: 'no-cache' });
}
