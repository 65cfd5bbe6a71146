import { parseArgs } from 'node:util';
import { readConfig } from '../platform/config.ts';
import { openStore } from '../store/open.ts';
import { createClient } from '../services/clients.ts';

/**
 * `npm run create-client -- --name "Acme Payments"`: creates a partner in the database the service is
 * configured for (DATABASE_URL or PAYKIT_DATA_DIR), for production where there is no test portal.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { name: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const name = values.name?.trim();
  if (!name) throw new Error('give the partner a name: npm run create-client -- --name "Acme Payments"');
  if (name.length > 100) throw new Error('the name must be at most 100 characters');
  const config = readConfig();
  if (config.dataDir === 'memory' && !config.databaseUrl)
    throw new Error('PAYKIT_DATA_DIR=memory keeps nothing: point it at the service’s database');
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const credentials = await createClient(store, name, new Date());
    if (values.json) {
      console.log(JSON.stringify(credentials));
      return;
    }
    console.log(`Created client "${name}" (${config.environment}).`);
    console.log(`  client id:   ${credentials.clientId}`);
    console.log(`  secret key:  ${credentials.secretKey}   (shown once: store it now)`);
    console.log(`  public key:  ${credentials.publicKey}`);
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  console.error(`create-client: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
