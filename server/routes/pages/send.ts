import type { FastifyReply } from 'fastify';
import type { Page } from '../../pages/layout.ts';

/** Pages need no script, frame nobody but us, and may hold secrets (the portal), so nothing caches them. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'self'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export function sendPage(reply: FastifyReply, page: Page): FastifyReply {
  return reply.code(page.status).headers(PAGE_HEADERS).send(page.html);
}
