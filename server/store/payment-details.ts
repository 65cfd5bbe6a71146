import { sql } from 'kysely';
import type { Executor } from './schema.ts';

/** What a payment's export row and receipt say beside the transaction itself: who paid, for what, and its tax (minor units). */
export interface PaymentDetails {
  description: string;
  customer: string;
  tax: number;
}

/**
 * The customer, description and tax of transactions (a page of the export's rows, a receipt's): from the row's pay-link
 * request and customer, or, for a refund, void or return, from its original's. One query per page, by the rows' ids
 * (unique) and the requests' and customers' primary keys.
 */
export class PaymentDetailsRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async of(merchantId: string, transactionIds: string[]): Promise<Map<string, PaymentDetails>> {
    if (transactionIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('transactions as t')
      .leftJoin('transactions as p', (join) =>
        join.onRef('p.id', '=', 't.parent_id').onRef('p.merchant_id', '=', 't.merchant_id'),
      )
      .leftJoin('payment_requests as r', (join) =>
        join
          .on('r.id', '=', sql<string>`coalesce(t.request_id, p.request_id)`)
          .onRef('r.merchant_id', '=', 't.merchant_id'),
      )
      .leftJoin('customers as c', (join) =>
        join
          .on('c.id', '=', sql<string>`coalesce(t.customer_id, p.customer_id, r.customer_id)`)
          .onRef('c.merchant_id', '=', 't.merchant_id'),
      )
      .select([
        't.id',
        'r.description',
        'r.tax',
        'r.customer_name',
        'r.email',
        'c.first_name',
        'c.last_name',
        'c.email as customer_email',
      ])
      .where('t.merchant_id', '=', merchantId)
      .where('t.id', 'in', transactionIds)
      .execute();
    return new Map(
      rows.map((row) => {
        const name = [row.first_name, row.last_name].filter(Boolean).join(' ') || row.customer_name || '';
        const email = row.customer_email || row.email || '';
        return [
          row.id,
          {
            description: row.description ?? '',
            customer: name && email ? `${name} <${email}>` : name || email,
            tax: row.tax ?? 0,
          },
        ];
      }),
    );
  }
}
