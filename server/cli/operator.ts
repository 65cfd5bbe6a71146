import { parseArgs } from 'node:util';
import { userInfo } from 'node:os';
import { readConfig } from '../platform/config.ts';
import { openStore } from '../store/open.ts';
import type { MerchantStatus } from '../store/schema.ts';
import { createOperator, findApplication, reviewApplication } from '../services/merchant-review.ts';

const USAGE = `npm run operator -- <command>
  credentials create --name "Ops team"      a bearer token for the operator API (/operator/v1), shown once
  merchants list [--status pending]         applications by status, oldest submitted first
  merchants show <m_… | mk_…>               one application and its review decisions
  merchants approve <m_… | mk_…> [--note …] approve a pending application (the partner hears merchant.approval)
  merchants decline <m_… | mk_…> --reason … decline it, with a reason the partner can pass on
Options: --as NAME (the reviewer recorded; default cli:<your user>), --json`;

const STATUSES: readonly MerchantStatus[] = ['invited', 'pending', 'completed', 'declined'];

/**
 * `npm run operator -- …`: the production review of onboarding applications, against the database the service is
 * configured for (DATABASE_URL or PAYKIT_DATA_DIR). The running service delivers the webhooks it writes.
 */
async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      status: { type: 'string' },
      note: { type: 'string' },
      reason: { type: 'string' },
      as: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [area, command, ref] = positionals;
  const config = readConfig();
  if (config.dataDir === 'memory' && !config.databaseUrl)
    throw new Error('PAYKIT_DATA_DIR=memory keeps nothing: point it at the service’s database');
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const print = (text: string, data: unknown) => console.log(values.json ? JSON.stringify(data) : text);
  const reviewer = values.as?.trim() || `cli:${userInfo().username}`;
  try {
    if (area === 'credentials' && command === 'create') {
      const name = values.name?.trim();
      if (!name) throw new Error('give the operator a name: --name "Ops team"');
      const operator = await createOperator(store, name, new Date());
      print(`Operator "${name}" created.\n  token: ${operator.token}   (shown once: store it now)`, {
        ...operator,
        name,
      });
    } else if (area === 'merchants' && command === 'list') {
      const status = (values.status ?? 'pending') as MerchantStatus;
      if (!STATUSES.includes(status)) throw new Error(`--status must be one of ${STATUSES.join(', ')}`);
      const { items, total } = await store.merchants.withStatus(status, 100, 0);
      const rows = items.map((m) => ({
        merchant_id: m.id,
        business_name: m.business_name,
        email: m.email,
        submitted_at: m.submitted_at,
        decline_reason: m.decline_reason,
      }));
      print(
        `${total} ${status}:\n${rows.map((r) => `  ${r.merchant_id}  ${r.business_name} <${r.email}>  ${r.submitted_at ?? ''}`).join('\n')}`,
        rows,
      );
    } else if (area === 'merchants' && ref && (command === 'show' || command === 'approve' || command === 'decline')) {
      const merchant = await findApplication(store, ref);
      if (command === 'show') {
        const reviews = await store.operators.reviewsOf(merchant.id);
        print(
          `${merchant.id} ${merchant.business_name}: ${merchant.status}\n${JSON.stringify(JSON.parse(merchant.application ?? '{}'), null, 2)}`,
          { merchant_id: merchant.id, status: merchant.status, reviews },
        );
      } else {
        const decision = command === 'approve' ? 'approved' : 'declined';
        const reviewed = await reviewApplication(
          store,
          merchant,
          decision,
          (decision === 'approved' ? values.note : values.reason) ?? '',
          reviewer,
          new Date(),
        );
        print(`${reviewed.id} ${reviewed.business_name}: ${reviewed.status}`, {
          merchant_id: reviewed.id,
          status: reviewed.status,
          decline_reason: reviewed.decline_reason,
        });
      }
    } else {
      throw new Error(`unknown command\n${USAGE}`);
    }
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  console.error(`operator: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
