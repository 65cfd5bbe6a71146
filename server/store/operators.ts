import type { Executor, MerchantReviewsTable, OperatorsTable } from './schema.ts';

export type Operator = OperatorsTable;
export type MerchantReview = MerchantReviewsTable;

/** Operators of the platform, and the review decisions they made. */
export class OperatorRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async insert(operator: Operator): Promise<void> {
    await this.db.insertInto('operators').values(operator).execute();
  }

  async findByTokenHash(tokenHash: string): Promise<Operator | undefined> {
    return this.db.selectFrom('operators').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async addReview(review: MerchantReview): Promise<void> {
    await this.db.insertInto('merchant_reviews').values(review).execute();
  }

  /** A merchant's review decisions, oldest first. */
  async reviewsOf(merchantId: string): Promise<MerchantReview[]> {
    return this.db
      .selectFrom('merchant_reviews')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .orderBy('decided_at')
      .orderBy('id')
      .execute();
  }
}
