import type { RefusalReason } from '../../contract/refusal-reasons.ts';
import type { WidgetErrorCode } from '../../src/shared/errors.ts';

/**
 * The codes only an element gives, beside the service's refusal reasons (contract/refusal-reasons.ts): exactly the
 * rest of `WidgetErrorCode`, which `npm run typecheck` holds this list to (test/build/widget-error-codes.check.ts).
 */
export const ELEMENT_ERROR_CODES = [
  'network',
  'csp',
  'config',
  'expired',
  'service_error',
] as const satisfies readonly Exclude<WidgetErrorCode, RefusalReason>[];
