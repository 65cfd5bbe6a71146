import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkEvidenceFile,
  decideAnswer,
  decideOpen,
  decideSubmit,
  DISPUTE_FEE,
  disputeEntries,
  EVIDENCE_DAYS,
  evidenceDueBy,
  OUTCOME_WORDS,
  REVIEW_DAYS,
  sandboxOutcome,
  type Disputable,
  type DisputeState,
} from '../../server/domain/disputes.ts';
import { isSafeFilename, MAX_EVIDENCE_FILE_BYTES, sniffEvidenceType } from '../../rules/evidence-files.ts';
import { decideRefund, decideVoid } from '../../server/domain/refunds.ts';

/** Dispute rules as tables: which sale, which step when, the sandbox's outcome at the instant, the files by their bytes. */
const DAY = 86_400_000;
const HOUR = 3_600_000;
const OPENED = Date.parse('2026-03-02T10:00:00.000Z');
const at = (ms: number) => new Date(OPENED + ms);
const DUE = evidenceDueBy(new Date(OPENED)).toISOString();
const sale = (fields: Partial<Disputable> = {}): Disputable => ({
  kind: 'sale',
  method: 'card',
  status: 'completed',
  amount: 6000,
  refunded: 0,
  disputeId: null,
  ...fields,
});
const dispute = (fields: Partial<DisputeState> = {}): DisputeState => ({
  id: 'dp_1',
  status: 'needs_response',
  funds_withdrawn: 1,
  evidence_due_by: DUE,
  submitted_at: null,
  evidence: '{}',
  file_count: 0,
  ...fields,
});

test('which sale may be disputed, for how much', () => {
  const cases: [string, Disputable | undefined, number | undefined, string | number][] = [
    ['a completed card sale, all of it', sale(), undefined, 6000],
    ['part of it', sale(), 2500, 2500],
    ['partly refunded: the rest', sale({ refunded: 1000 }), undefined, 5000],
    ['more than the rest', sale({ refunded: 1000 }), 5001, 'invalid_request'],
    ['zero', sale(), 0, 'invalid_request'],
    ['refunded in full', sale({ refunded: 6000 }), undefined, 'conflict'],
    ['voided', sale({ status: 'voided' }), undefined, 'conflict'],
    ['ACH', sale({ method: 'ach' }), undefined, 'conflict'],
    ['a hold', sale({ kind: 'preauth', status: 'authorized' }), undefined, 'conflict'],
    ['disputed already', sale({ disputeId: 'dp_0' }), undefined, 'conflict'],
    ['unknown', undefined, undefined, 'not_found'],
  ];
  for (const [name, subject, requested, expected] of cases) {
    const decision = decideOpen(subject, requested);
    assert.equal(decision.ok ? decision.amount : decision.reason, expected, name);
  }
});

test('a disputed sale: neither refunded nor voided, the 409 names the dispute', () => {
  const disputed = {
    kind: 'sale',
    status: 'completed',
    amount: 6000,
    refunded: 0,
    completedAt: new Date(OPENED).toISOString(),
    settledAt: null,
    disputeId: 'dp_9',
  };
  for (const decision of [decideRefund(disputed, 100, at(HOUR)), decideVoid(disputed, at(HOUR))]) {
    assert.equal(decision.ok, false);
    if (!decision.ok) {
      assert.equal(decision.reason, 'conflict');
      assert.match(decision.message, /dp_9/);
    }
  }
});

test('evidence, submission and acceptance: until the due date exactly, never after, never once submitted or closed', () => {
  assert.equal(DUE, at(EVIDENCE_DAYS * DAY).toISOString());
  const cases: [string, DisputeState, Date, RegExp | 'ok'][] = [
    ['just opened', dispute(), at(0), 'ok'],
    ['at the due instant', dispute(), at(EVIDENCE_DAYS * DAY), 'ok'],
    ['a millisecond after', dispute(), at(EVIDENCE_DAYS * DAY + 1), /was due by/],
    ['an inquiry', dispute({ status: 'inquiry', funds_withdrawn: 0 }), at(DAY), 'ok'],
    ['under review', dispute({ status: 'under_review' }), at(DAY), /under review/],
    ['won', dispute({ status: 'won' }), at(DAY), /is won/],
    ['lost', dispute({ status: 'lost' }), at(DAY), /is lost/],
  ];
  for (const [name, subject, now, expected] of cases) {
    const decision = decideAnswer(subject, now);
    if (expected === 'ok') assert.equal(decision.ok, true, name);
    else {
      assert.equal(decision.ok, false, name);
      if (!decision.ok) assert.match(decision.message, expected, name);
    }
  }
  assert.equal(decideSubmit(dispute(), at(0)).ok, false, 'nothing to submit');
  assert.equal(decideSubmit(dispute({ evidence: '{"explanation":"  "}' }), at(0)).ok, false, 'blank text is nothing');
  assert.equal(decideSubmit(dispute({ file_count: 1 }), at(0)).ok, true, 'a file is evidence');
  assert.equal(decideSubmit(dispute({ evidence: '{"refund_policy":"30 days"}' }), at(0)).ok, true);
});

test("the sandbox's outcome at an instant: the words at once, else won 7 days after submission; lost past the due date; an inquiry escalates", () => {
  const submitted = at(DAY).toISOString();
  const review = (explanation: string, fields: Partial<DisputeState> = {}) =>
    dispute({ status: 'under_review', submitted_at: submitted, evidence: JSON.stringify({ explanation }), ...fields });
  const cases: [string, DisputeState, Date, string | undefined][] = [
    ['winning words', review(`see ${OUTCOME_WORDS.won}`), at(DAY + 1), 'won'],
    ['losing words', review(OUTCOME_WORDS.lost), at(DAY + 1), 'lost'],
    ['no words, a millisecond early', review('delivered'), at(DAY + REVIEW_DAYS * DAY - 1), undefined],
    ['no words, 7 days after submission', review('delivered'), at(DAY + REVIEW_DAYS * DAY), 'won'],
    ['an inquiry reviewed and lost', review(OUTCOME_WORDS.lost, { funds_withdrawn: 0 }), at(DAY + 1), 'escalate'],
    ['waiting, at the due instant', dispute(), at(EVIDENCE_DAYS * DAY), undefined],
    ['waiting, past it', dispute(), at(EVIDENCE_DAYS * DAY + 1), 'lost'],
    ['an inquiry past it', dispute({ status: 'inquiry', funds_withdrawn: 0 }), at(EVIDENCE_DAYS * DAY + 1), 'escalate'],
    ['closed', dispute({ status: 'won' }), at(30 * DAY), undefined],
  ];
  for (const [name, subject, now, expected] of cases) assert.equal(sandboxOutcome(subject, now), expected, name);
});

test("a dispute's entries, on its sale: withdrawn amount and fee, given back when won, dated as a refund would be", () => {
  const card = { id: 'txn_1', merchant_id: 'm_1', method: 'card' as const, completed_at: '2026-03-02T10:00:00.000Z' };
  const withdrawn = disputeEntries('withdraw', card, 2500, at(HOUR), '2026-03-02T11:00:00.000Z');
  assert.deepEqual(
    withdrawn.map((e) => [e.type, e.amount, e.transaction_id, e.available_on]),
    [
      ['dispute', -2500, 'txn_1', '2026-03-06'],
      ['dispute_fee', -DISPUTE_FEE, 'txn_1', '2026-03-06'],
    ],
    "with the sale's money while that is pending",
  );
  const back = disputeEntries('reinstate', card, 2500, at(30 * DAY), '2026-04-01T10:00:00.000Z');
  assert.deepEqual(
    back.map((e) => [e.type, e.amount, e.available_on]),
    [
      ['dispute_reversal', 2500, '2026-04-01'],
      ['dispute_fee_refund', DISPUTE_FEE, '2026-04-01'],
    ],
  );
  assert.equal(
    [...withdrawn, ...back].reduce((sum, e) => sum + e.amount, 0),
    0,
    'won: nothing lost',
  );
});

test('evidence files: PDF, PNG or JPEG by their bytes, named plainly, at most 5 MB', () => {
  const pdf = Buffer.from('%PDF-1.7\n');
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0]);
  assert.equal(sniffEvidenceType(pdf), 'application/pdf');
  assert.equal(sniffEvidenceType(png), 'image/png');
  assert.equal(sniffEvidenceType(jpeg), 'image/jpeg');
  for (const other of ['<svg/>', '<!doctype html>', 'PK\u0003\u0004', 'GIF89a', '%PD', ''])
    assert.equal(sniffEvidenceType(Buffer.from(other, 'latin1')), undefined, JSON.stringify(other));
  for (const name of ['receipt.pdf', 'Photo 1.JPG', 'scan.jpeg', 'label-2026.png', 'déclaration.pdf'])
    assert.equal(isSafeFilename(name), true, name);
  for (const name of [
    '',
    '../x.pdf',
    'a/b.pdf',
    'a\\b.pdf',
    '.x.pdf',
    'a\u0000.pdf',
    'a\n.pdf',
    'x.svg',
    'x.html',
    'x',
    'C:x.pdf',
    `${'a'.repeat(97)}.pdf`,
  ])
    assert.equal(isSafeFilename(name), false, JSON.stringify(name));
  const check = (name: string, bytes: Buffer) => {
    const result = checkEvidenceFile(name, bytes.toString('base64'));
    return result.ok ? result.type : result.message;
  };
  assert.equal(check('a.pdf', pdf), 'application/pdf');
  assert.equal(check('a.jpg', jpeg), 'image/jpeg');
  assert.match(check('a.png', pdf), /does not match/);
  assert.match(check('a.png', Buffer.from('<svg/>')), /not a PDF, PNG or JPEG/);
  const largest = Buffer.alloc(MAX_EVIDENCE_FILE_BYTES, 0);
  pdf.copy(largest);
  assert.equal(check('big.pdf', largest), 'application/pdf', 'exactly 5 MB');
  assert.match(check('big.pdf', Buffer.concat([largest, Buffer.from([0])])), /over 5 MB/);
  for (const text of ['JVBERi0=x', 'JV=BERi0', 'JVBERi0*'])
    assert.equal(checkEvidenceFile('a.pdf', text).ok, false, `${text} is not base64`);
});
