import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../plugins/deps.ts';
import { failures } from '../schemas/envelope.ts';
import { MerchantExportQuery, TransactionsCsv } from '../schemas/widgets.ts';
import { merchantByKey } from '../services/merchant-access.ts';
import { transactionsExport } from '../services/transactions-csv.ts';

/** Streams an export as a download. */
export function sendCsv(reply: FastifyReply, { filename, csv }: ReturnType<typeof transactionsExport>): FastifyReply {
  return (
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      // A page on another origin downloads it with fetch and may name the file as the service does.
      .header('access-control-expose-headers', 'Content-Disposition')
      .send(csv)
  );
}

/** The console's export with the client's credentials: what `paykit/client`'s `exportTransactions` calls. */
export const transactionExportRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { clock }) => {
  app.get(
    '/merchant/transactions/export.csv',
    {
      schema: {
        operationId: 'exportTransactions',
        tags: ['Transactions'],
        summary:
          "Every transaction of the merchant the filter matches, as CSV, streamed (the payments console's filters)",
        querystring: MerchantExportQuery,
        response: { 200: TransactionsCsv, ...failures },
      },
    },
    async (request, reply) => {
      const { merchant_key, ...query } = request.query;
      const merchant = await merchantByKey(request.unit.store, request.client.id, merchant_key);
      return sendCsv(reply, transactionsExport(request.unit.store, merchant.id, query, clock.now()));
    },
  );
};
