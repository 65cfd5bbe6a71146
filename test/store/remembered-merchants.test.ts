import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestStore, testDatabases } from '../support/databases.ts';
import { createClient } from '../../server/services/clients.ts';
import { merchantByKey } from '../../server/services/merchant-access.ts';
import { digest } from '../../server/platform/secrets.ts';

for (const database of testDatabases()) {
  test(`this process's own writes forget the remembered merchants, again once their unit committed (${database})`, async (t) => {
    const { store, close } = await openTestStore(database);
    t.after(close);
    const now = new Date().toISOString();
    const { clientId } = await createClient(store, 'Remembering', new Date());
    const id = `m_remembered_${database}`;
    await store.merchants.insert({
      id,
      client_id: clientId,
      company_id: null,
      status: 'completed',
      business_name: 'Before',
      email: 'r@example.com',
      first_name: 'R',
      last_name: 'M',
      phone: '',
      website: '',
      merchant_key_hash: digest('mk_remembered'),
      public_key: `pk_remembered_${database}`,
      application: null,
      created_at: now,
      submitted_at: null,
      approved_at: null,
      declined_at: null,
      decline_reason: null,
    });
    const remembered = () => store.recentMerchants.get(clientId, digest('mk_remembered'));
    assert.equal((await merchantByKey(store, clientId, 'mk_remembered')).receipts_enabled, 1);
    assert.ok(remembered(), 'remembered after a read');

    // Its receipts setting, in a unit that a read of the merchant runs beside before the unit commits.
    await store.transaction(async (tx) => {
      await tx.widgets.saveSettings({
        merchant_id: id,
        button_label: 'Pay',
        primary_color: '#4f46e5',
        text_color: '#ffffff',
        allowed_origins: '[]',
        receipts_enabled: 0,
        logo_hash: null,
        updated_at: now,
      });
      await merchantByKey(store, clientId, 'mk_remembered'); // reads what is committed: the setting before
    });
    assert.equal(remembered(), undefined, 'forgotten once the unit committed');
    assert.equal((await merchantByKey(store, clientId, 'mk_remembered')).receipts_enabled, 0);

    await store.merchants.update(id, { business_name: 'After' });
    assert.equal(remembered(), undefined);
    assert.equal((await merchantByKey(store, clientId, 'mk_remembered')).business_name, 'After');
  });
}
