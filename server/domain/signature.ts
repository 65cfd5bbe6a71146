/** The e-signature that closes the hosted onboarding form: a typed full name and an explicit consent. */
export interface AgreementSignature {
  signerName: string;
  agreed: boolean;
}

export const AGREEMENT_VERSION = '2026-11';

export function validateSignature(signature: AgreementSignature): string[] {
  const errors: string[] = [];
  const name = signature.signerName.trim();
  if (!signature.agreed) errors.push('Tick the box to accept the merchant agreement.');
  if (name.length < 3 || !name.includes(' ')) errors.push('Sign with your full name, first and last, e.g. "Jane Doe".');
  else if (name.length > 200) errors.push('The signature must be at most 200 characters.');
  return errors;
}
