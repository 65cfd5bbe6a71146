import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** One file as served: its bytes in each encoding, and the entity tag of its content. */
export interface ServedFile {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** A hash of the content; each encoding's ETag adds the encoding to it. */
  tag: string;
}

const ENCODINGS = ['br', 'gzip', 'identity'] as const;
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Compressed once, off the event loop: precompressed answers cost no CPU per request. Brotli's best quality takes
 * a second per 100 KB or so; a large file (the reference's renderer) takes a middle one, a few percent bigger.
 */
export async function compressFile(text: string | Buffer, { brotliQuality = 11 } = {}): Promise<ServedFile> {
  const identity = Buffer.from(text);
  const [br, gzipped] = await Promise.all([
    promisify(brotliCompress)(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    promisify(gzip)(identity, { level: 9 }),
  ]);
  return { identity, br, gzip: gzipped, tag: createHash('sha256').update(identity).digest('base64url').slice(0, 22) };
}

/**
 * Sends one file in the best encoding the browser accepts, with an ETag per encoding; a matching If-None-Match
 * gets a 304. Every answer varies by Accept-Encoding.
 */
export function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: ServedFile,
  {
    cacheControl,
    contentType = 'text/javascript; charset=utf-8',
    anyOrigin = false,
  }: { cacheControl: string; contentType?: string; anyOrigin?: boolean },
) {
  const encoding = negotiate(request.headers['accept-encoding'] ?? 'identity', [...ENCODINGS]) ?? 'identity';
  const etag = `"${file.tag}${encoding === 'identity' ? '' : `-${encoding}`}"`;
  reply
    .header('content-type', contentType)
    .header('cache-control', cacheControl)
    .header('vary', 'Accept-Encoding')
    .header('etag', etag);
  if (anyOrigin) reply.header('access-control-allow-origin', '*');
  const known = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (known.includes(etag) || known.includes('*')) return reply.code(304).send();
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(file[encoding]);
}
