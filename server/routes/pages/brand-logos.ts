import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../plugins/deps.ts';
import { LOGO_EXTENSIONS, type LogoType } from '../../domain/logo-image.ts';
import { LOGO_PATH } from '../../services/branding.ts';

/**
 * The logos of the hosted pages, by their content's hash: the same URL is always the same image, so it is cached for
 * a year. Only images checked when they were set (PNG, JPEG, WebP), sent as what they are and never sniffed.
 */
export const brandLogoRoute: FastifyPluginAsync<Deps> = async (app) => {
  app.get<{ Params: { file: string } }>(`${LOGO_PATH}:file`, { schema: { hide: true } }, async (request, reply) => {
    const [, hash, extension] = /^([0-9a-f]{64})\.(png|jpg|webp)$/.exec(request.params.file) ?? [];
    const logo = hash ? await request.unit.store.branding.logo(hash) : undefined;
    if (!logo || LOGO_EXTENSIONS[logo.content_type as LogoType] !== extension) {
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send('No such logo.');
    }
    return reply
      .code(200)
      .headers({
        'content-type': logo.content_type,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'",
      })
      .send(logo.bytes);
  });
};
