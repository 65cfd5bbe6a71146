/** The e-signature that closes the hosted onboarding form: a typed full name and an explicit consent. */
export interface AgreementSignature {
  signerName: string;
  agreed: boolean;
}

export const AGREEMENT_VERSION = '2026-11';

/** What can be wrong with a signature; named, so that the hosted form can say it in the merchant's language. */
export const SIGNATURE_PROBLEMS = {
  agree: 'Tick the box to accept the merchant agreement.',
  fullName: 'Sign with your full name, first and last, e.g. "Jane Doe".',
  tooLong: 'The signature must be at most 200 characters.',
} as const;

export function validateSignature(signature: AgreementSignature): string[] {
  const errors: string[] = [];
  const name = signature.signerName.trim();
  if (!signature.agreed) errors.push(SIGNATURE_PROBLEMS.agree);
  if (name.length < 3 || !name.includes(' ')) errors.push(SIGNATURE_PROBLEMS.fullName);
  else if (name.length > 200) errors.push(SIGNATURE_PROBLEMS.tooLong);
  return errors;
}
