import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTestStore, testDatabases } from '../support/databases.ts';
import { validApplication } from '../support/fixtures.ts';
import { openStore } from '../../server/store/open.ts';
import type { Store } from '../../server/store/store.ts';
import { createClient, ensureClient } from '../../server/services/clients.ts';
import {
  createOnboardingSession,
  startHostedOnboarding,
  submitApplication,
  submitHostedApplication,
  openOnboardingLink,
} from '../../server/services/onboarding.ts';
import { reviewApplication } from '../../server/services/merchant-review.ts';
import { matchesDigest } from '../../server/platform/secrets.ts';

const now = () => new Date();

for (const database of testDatabases()) {
  describe(`store (${database})`, () => {
    let store: Store;
    let close: () => Promise<void>;
    let clientId: string;
    before(async () => {
      ({ store, close } = await openTestStore(database));
      clientId = (await createClient(store, 'Store test', now())).clientId;
    });
    after(() => close());

    test('a failed transaction leaves neither the change nor its event', async () => {
      const before = (await store.events.listForClient(clientId)).length;
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.events.add(clientId, 'merchant.approval', { merchant_id: 'm_x' }, now());
          await tx.merchants.insert({
            id: 'm_rolled_back',
            client_id: clientId,
            company_id: null,
            status: 'pending',
            business_name: 'B',
            email: 'e',
            first_name: 'f',
            last_name: 'l',
            phone: 'p',
            website: '',
            merchant_key_hash: null,
            public_key: 'pk_rolled_back',
            application: null,
            created_at: now().toISOString(),
            submitted_at: null,
            approved_at: null,
            declined_at: null,
            decline_reason: null,
          });
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal((await store.events.listForClient(clientId)).length, before);
      assert.equal(await store.merchants.findById(clientId, 'm_rolled_back'), undefined);
    });

    test('twenty approvals at once approve once, write one event and one decision', async () => {
      const { merchant } = await submitApplication(store, clientId, validApplication(), now());
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, () => reviewApplication(store, merchant, 'approved', '', 'test', now())),
      );
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
      for (const o of outcomes) if (o.status === 'rejected') assert.match(String(o.reason), /already approved/);
      const approvals = (await store.events.listForClient(clientId)).filter(
        (e) => e.event_type === 'merchant.approval' && e.data.merchant_id === merchant.id,
      );
      assert.equal(approvals.length, 1);
      assert.equal((await store.operators.reviewsOf(merchant.id)).length, 1);
    });

    test('an onboarding link submitted ten times at once is used once', async () => {
      const session = await createOnboardingSession(store, clientId, now());
      const { onboarding_link } = await startHostedOnboarding(store, clientId, session.token, {}, now(), 'http://x');
      const token = onboarding_link.split('/').at(-1)!;
      const opened = await openOnboardingLink(store, token, undefined, now());
      assert.equal(opened.state, 'open');
      const browser = opened.state === 'open' ? opened.browser : '';
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          submitHostedApplication(
            store,
            token,
            browser,
            validApplication(),
            { signerName: 'Jane Doe', agreed: true },
            now(),
          ),
        ),
      );
      assert.equal(results.filter((r) => r.accepted).length, 1);
      const onboarded = (await store.events.listForClient(clientId)).filter((e) => e.event_type === 'documents.signed');
      assert.equal(onboarded.length, 1);
    });

    test('the seeded client is created once and follows a changed secret', async () => {
      await ensureClient(store, 'seeded_partner', 'first-secret-0123456789', now());
      await ensureClient(store, 'seeded_partner', 'first-secret-0123456789', now());
      const first = await store.clients.findById('seeded_partner');
      assert.ok(first && matchesDigest('first-secret-0123456789', first.secret_hash));
      await ensureClient(store, 'seeded_partner', 'second-secret-0123456789', now());
      const second = await store.clients.findById('seeded_partner');
      assert.ok(second && matchesDigest('second-secret-0123456789', second.secret_hash));
      assert.ok(!matchesDigest('first-secret-0123456789', second.secret_hash));
      assert.equal(second.public_key, first.public_key);
      await assert.rejects(ensureClient(store, 'x', 'long-enough-secret', now()), /PAYKIT_CLIENT_ID must be 3 to 64/);
      await assert.rejects(ensureClient(store, 'seeded_partner', 'short', now()), /at least 16 characters/);
    });

    test('processes starting at once seed the same client without failing', async () => {
      await Promise.all([1, 2, 3].map(() => ensureClient(store, 'racing_partner', 'racing-secret-0123456789', now())));
      const client = await store.clients.findById('racing_partner');
      assert.ok(client && matchesDigest('racing-secret-0123456789', client.secret_hash));
    });
  });
}

test('opening an existing SQLite database again applies no migration twice', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const first = await openStore({ dataDir: dir });
  const { clientId } = await createClient(first, 'Kept', now());
  await first.close();
  const second = await openStore({ dataDir: dir });
  assert.equal((await second.clients.findById(clientId))?.name, 'Kept');
  await second.close();
});
