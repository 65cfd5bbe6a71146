/**
 * Type-level check, run by `npm run typecheck`: test/support/widget-error-codes.ts lists every code of
 * `WidgetErrorCode` that is not a refusal reason of the service (it may list no other: `satisfies` there).
 */
import type { RefusalReason } from '../../contract/refusal-reasons.ts';
import type { WidgetErrorCode } from '../../src/shared/errors.ts';
import type { ELEMENT_ERROR_CODES } from '../support/widget-error-codes.ts';

type Unlisted = Exclude<Exclude<WidgetErrorCode, RefusalReason>, (typeof ELEMENT_ERROR_CODES)[number]>;
export const everyElementCodeListed: [Unlisted] extends [never] ? true : { unlisted: Unlisted } = true;
