import { Type } from 'typebox';
import { Body, Cursor, CursorFields, Envelope, Instant, MerchantKey, OneOf, PageSize } from './envelope.ts';
import { DISPUTE_REASONS, DISPUTE_STATUSES } from '../domain/disputes.ts';
import { MAX_EVIDENCE_FILE_BYTES, MAX_EVIDENCE_FILES } from '../../rules/evidence-files.ts';

const STATUS_TEXT =
  'inquiry (the bank asks; no money withdrawn yet), needs_response, under_review (evidence submitted), won or lost';
const REASON_TEXT = "The card holder's reason, as their bank gives it";
const Id = Type.String({ minLength: 1, maxLength: 100 });

const HistoryStep = Type.Object({ status: OneOf(DISPUTE_STATUSES), at: Instant });
const TextLimit = (description: string) => Type.String({ maxLength: 20_000, description });

/** The evidence's text fields, each optional: given replaces the saved text, empty clears it. */
const EvidenceTextFields = {
  product_description: Type.Optional(TextLimit('What was sold, as the customer saw it')),
  customer_communication: Type.Optional(TextLimit('Messages with the customer: what they asked, what you answered')),
  refund_policy: Type.Optional(TextLimit('Your refund policy, and how the customer was shown it')),
  shipping_carrier: Type.Optional(Type.String({ maxLength: 200 })),
  shipping_tracking_number: Type.Optional(Type.String({ maxLength: 200 })),
  service_date: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD: when a service was given' })),
  explanation: Type.Optional(TextLimit('Your case, in your words')),
};

const FileFields = {
  file_id: Type.String(),
  filename: Type.String(),
  content_type: OneOf(['application/pdf', 'image/png', 'image/jpeg'] as const, 'As its bytes say'),
  size: Type.Integer({ description: 'Bytes' }),
  created_date: Instant,
};
export const DisputeSummary = Type.Object({
  dispute_id: Type.String(),
  merchant_id: Type.String(),
  transaction_id: Type.String({ description: 'The disputed sale' }),
  amount: Type.String({ description: 'Disputed, decimal text: at most what was not refunded of the sale' }),
  fee: Type.String({ description: 'The dispute fee, withdrawn with the amount and returned if won' }),
  currency: OneOf(['USD'] as const),
  reason: OneOf(DISPUTE_REASONS, REASON_TEXT),
  status: OneOf(DISPUTE_STATUSES, STATUS_TEXT),
  funds_withdrawn: Type.Boolean({ description: 'Whether the amount and the fee are out of the balance now' }),
  evidence_due_by: Instant,
  file_count: Type.Integer(),
  submitted_at: Type.Union([Instant, Type.Null()]),
  closed_at: Type.Union([Instant, Type.Null()]),
  created_date: Instant,
  updated_date: Instant,
});

export const Dispute = Type.Object({
  ...DisputeSummary.properties,
  evidence: Type.Object(EvidenceTextFields),
  files: Type.Array(Type.Object(FileFields)),
  history: Type.Array(HistoryStep, { description: 'Its states, oldest first' }),
});
export const DisputeAnswer = Envelope(Dispute);

export const DisputeListQuery = Type.Object({
  merchant_key: MerchantKey,
  status: Type.Optional(OneOf(DISPUTE_STATUSES, 'Only disputes in this state')),
  reason: Type.Optional(OneOf(DISPUTE_REASONS, 'Only disputes for this reason')),
  perPage: PageSize(),
  cursor: Cursor(),
});
export const DisputeListAnswer = Envelope(Type.Object({ items: Type.Array(DisputeSummary), ...CursorFields }));
export const DisputeParams = Type.Object({ dispute_id: Id });
export const DisputeFileParams = Type.Object({ dispute_id: Id, file_id: Id });
export const DisputeQuery = Type.Object({ merchant_key: MerchantKey });
export const DisputeActionBody = Body({ merchant_key: MerchantKey });

const EvidenceFiles = Type.Optional(
  Type.Array(
    Body({
      filename: Type.String({
        maxLength: 100,
        description: 'A plain name ending .pdf, .png, .jpg or .jpeg: no path, no control characters',
      }),
      content_base64: Type.String({ description: 'The file in base64: PDF, PNG or JPEG, checked by its bytes' }),
    }),
    {
      maxItems: MAX_EVIDENCE_FILES,
      description: `Added to those saved: at most ${MAX_EVIDENCE_FILES} in all, ${MAX_EVIDENCE_FILE_BYTES / 1024 / 1024} MB each`,
    },
  ),
);
export const EvidenceBody = Body({ merchant_key: MerchantKey, ...EvidenceTextFields, files: EvidenceFiles });
/** The console's evidence (session feature: disputes): the API's, its merchant named by the session token. */
export const ConsoleEvidenceBody = Body({ ...EvidenceTextFields, files: EvidenceFiles });
export const ConsoleDisputeListQuery = Type.Object({
  status: DisputeListQuery.properties.status,
  reason: DisputeListQuery.properties.reason,
  perPage: PageSize(),
  cursor: Cursor(),
});
/** One file of the most its base64 takes, and the text beside it: a larger upload is refused before it is read. */
export const EVIDENCE_BODY_LIMIT_BYTES = Math.ceil(MAX_EVIDENCE_FILE_BYTES / 3) * 4 + 256 * 1024;

/** A file as uploaded, in base64 as it was sent: JSON like every answer, to its merchant only. */
export const DisputeFileAnswer = Envelope(
  Type.Object({ ...FileFields, content_base64: Type.String({ description: 'The file, in base64' }) }),
);

export const SandboxDisputeBody = Body({
  merchant_key: MerchantKey,
  transaction_id: Type.String({ minLength: 1, maxLength: 100, description: 'A completed card sale of the merchant' }),
  reason: Type.Optional(OneOf(DISPUTE_REASONS, `${REASON_TEXT} (default general)`)),
  amount: Type.Optional(
    Type.String({ maxLength: 20, description: 'Decimal text; default all that was not refunded of the sale' }),
  ),
  inquiry: Type.Optional(
    Type.Boolean({ description: 'An inquiry first: nothing withdrawn until it becomes a dispute' }),
  ),
});
