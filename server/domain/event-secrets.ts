/**
 * Event fields that carry a secret the partner is shown once: the merchant key of `merchant.onboarding` (the
 * interface puts it there). The outbox keeps it only until the event is delivered or given up, or four days at
 * most; after that the field reads like `mk_…a1b2`, as the delivery log always shows it.
 */
const SECRET_FIELDS: Readonly<Record<string, readonly string[]>> = { 'merchant.onboarding': ['merchant_key'] };

/** How long an event may keep a secret while it waits: longer than the whole retry schedule (77.6 hours). */
export const SECRET_RETENTION_MS = 4 * 24 * 60 * 60 * 1000;

export function holdsSecrets(eventType: string): boolean {
  return SECRET_FIELDS[eventType] !== undefined;
}

/** `mk_3x…` → `mk_…Q9aZ`: enough to tell keys apart, not enough to use one. */
function maskSecret(value: string): string {
  const prefix = /^[a-z]+_/.exec(value)?.[0] ?? '';
  return `${prefix}…${value.slice(-4)}`;
}

/** The event's data with its secret fields masked. */
export function redactSecrets(eventType: string, data: Record<string, unknown>): Record<string, unknown> {
  const fields = SECRET_FIELDS[eventType];
  if (!fields) return data;
  const redacted = { ...data };
  for (const field of fields)
    if (typeof redacted[field] === 'string' && !(redacted[field] as string).includes('…'))
      redacted[field] = maskSecret(redacted[field] as string);
  return redacted;
}
