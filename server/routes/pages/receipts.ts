import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../plugins/deps.ts';
import { receiptOf } from '../../services/receipts.ts';
import { askedLocale, pageLocale } from '../../views/i18n/language.ts';
import { isReceiptLanguage } from '../../domain/receipt-texts.ts';
import { notFoundPage } from '../../views/not-found.ts';
import { receiptPage } from '../../views/receipt.ts';
import { sendPage } from './send.ts';
import { pooledRandomBytes } from '../../platform/secrets.ts';

/**
 * The hosted receipt a shopper's message links to. Its language: `?locale=`, else the one the receipt was sent in,
 * else the browser's. An unknown token is the plain 404 page: it says nothing about receipts that exist.
 */
export const receiptPages: FastifyPluginAsync<Deps> = async (app) => {
  app.get<{ Params: { token: string }; Querystring: { locale?: string } }>(
    '/receipts/:token',
    { schema: { hide: true } },
    async (request, reply) => {
      const receipt = await receiptOf(request.unit.store, request.params.token);
      if (!receipt) return sendPage(reply, notFoundPage());
      const { language } = pageLocale(
        askedLocale(request.query.locale) ?? (receipt.language || undefined),
        request.headers['accept-language'],
      );
      const nonce = pooledRandomBytes(16).toString('base64');
      return sendPage(reply, receiptPage(receipt, isReceiptLanguage(language) ? language : 'en', nonce), {
        scriptNonce: nonce,
      });
    },
  );
};
