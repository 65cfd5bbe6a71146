import type { Store } from '../store/store.ts';
import { digest, newToken } from '../platform/secrets.ts';
import { isoInstant } from '../domain/instants.ts';

export interface NewClientCredentials {
  clientId: string;
  secretKey: string;
  publicKey: string;
}

const CLIENT_ID = /^[A-Za-z0-9_-]{3,64}$/;

/** Creates a partner with fresh credentials; the secret is returned once and only its digest is kept. */
export async function createClient(store: Store, name: string, now: Date): Promise<NewClientCredentials> {
  const credentials = {
    clientId: `cli_${newToken('').slice(0, 20)}`,
    secretKey: newToken('sk_'),
    publicKey: newToken('pk_client_').slice(0, 40),
  };
  await store.clients.insert({
    id: credentials.clientId,
    name,
    secret_hash: digest(credentials.secretKey),
    public_key: credentials.publicKey,
    created_at: isoInstant(now),
  });
  return credentials;
}

/** Makes sure a client with exactly these credentials exists (PAYKIT_CLIENT_ID / PAYKIT_CLIENT_SECRET). */
export async function ensureClient(store: Store, id: string, secret: string, now: Date): Promise<void> {
  if (!CLIENT_ID.test(id)) throw new Error('PAYKIT_CLIENT_ID must be 3 to 64 letters, digits, "_" or "-"');
  if (secret.length < 16) throw new Error('PAYKIT_CLIENT_SECRET must be at least 16 characters');
  await store.clients.insertIfAbsent({
    id,
    name: id,
    secret_hash: digest(secret),
    public_key: newToken('pk_client_').slice(0, 40),
    created_at: isoInstant(now),
  });
  const client = await store.clients.findById(id);
  if (client?.secret_hash !== digest(secret)) await store.clients.updateSecret(id, digest(secret));
}
