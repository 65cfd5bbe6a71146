import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SAVED_ANSWER, canOpen, newDraft, parseDraft, saveStep } from '../../server/domain/onboarding-steps.ts';
import { validApplication } from '../support/fixtures.ts';

const TODAY = '2026-11-26';
const application = validApplication();

test('a step left valid moves the draft on and opens the next step; one with errors stays', () => {
  const draft = newDraft({ business_name: 'Prefilled' });
  assert.equal(canOpen(draft, 'owner'), false);
  const refused = saveStep(draft, 'business', { ...application.BusinessInfo, ein: '12' }, 'forward', TODAY);
  assert.deepEqual(
    refused.errors.map((e) => e.field),
    ['BusinessInfo.ein'],
  );
  assert.equal(refused.draft.at, 'business');
  assert.equal(refused.draft.reached, 'business');
  assert.equal(refused.draft.answers.BusinessInfo.ein, '12', 'what was typed is kept');

  const moved = saveStep(refused.draft, 'business', application.BusinessInfo, 'forward', TODAY);
  assert.deepEqual(moved.errors, []);
  assert.deepEqual([moved.draft.at, moved.draft.reached], ['owner', 'owner']);
  assert.equal(canOpen(moved.draft, 'owner'), true);
  assert.equal(canOpen(moved.draft, 'bank'), false);

  const back = saveStep(moved.draft, 'owner', { first_name: 'Jo', email: 'half@' }, 'back', TODAY);
  assert.deepEqual(back.errors, [], 'going back checks nothing');
  assert.deepEqual([back.draft.at, back.draft.reached], ['business', 'owner'], 'and keeps how far the merchant came');
  assert.equal(back.draft.answers.OwnerInfo.email, 'half@');
});

test('a draft keeps only the last four digits of a valid SSN or account number, and a kept one stands when left empty', () => {
  let draft = newDraft({});
  draft = saveStep(draft, 'business', application.BusinessInfo, 'forward', TODAY).draft;
  const invalid = saveStep(draft, 'owner', { ...application.OwnerInfo, ssn: '000-12-3456' }, 'forward', TODAY);
  assert.deepEqual(invalid.draft.kept, {}, 'an invalid number is not kept at all');
  const owner = saveStep(draft, 'owner', application.OwnerInfo, 'forward', TODAY);
  assert.deepEqual(owner.draft.kept, { 'OwnerInfo.ssn': '6789' });
  assert.equal(owner.draft.answers.OwnerInfo.ssn, undefined);
  assert.ok(!JSON.stringify(owner.draft).includes('123-45'));

  const again = saveStep(owner.draft, 'owner', { ...application.OwnerInfo, ssn: '' }, 'forward', TODAY);
  assert.deepEqual(again.errors, [], 'the kept SSN stands');
  const changed = saveStep(owner.draft, 'owner', { ...application.OwnerInfo, ssn: '219-09-9999' }, 'forward', TODAY);
  assert.deepEqual(changed.draft.kept, { 'OwnerInfo.ssn': '9999' });

  const bank = saveStep(owner.draft, 'bank', application.BankingInfo, 'forward', TODAY);
  assert.deepEqual(bank.draft.kept, { 'OwnerInfo.ssn': '6789', 'BankingInfo.account_number': '6789' });
  assert.ok(!JSON.stringify(bank.draft).includes('000123456789'));
});

test('an answer longer than a draft keeps is refused going forward and dropped going back', () => {
  const long = 'x'.repeat(MAX_SAVED_ANSWER + 1);
  const draft = newDraft({});
  const forward = saveStep(draft, 'processing', { legal_productssold: long }, 'forward', TODAY);
  assert.ok(forward.errors.some((e) => e.field === 'ProcessingInfo.legal_productssold'));
  assert.equal(forward.draft.answers.ProcessingInfo.legal_productssold, undefined);
  const back = saveStep(draft, 'owner', { b_title: long, first_name: 'Jo' }, 'back', TODAY);
  assert.deepEqual(back.draft.answers.OwnerInfo, { first_name: 'Jo' });
});

test('a stored draft is read back, and anything else is not taken for one', () => {
  const draft = saveStep(
    newDraft({ business_name: 'A' }),
    'business',
    application.BusinessInfo,
    'forward',
    TODAY,
  ).draft;
  assert.deepEqual(parseDraft(JSON.stringify(draft)), draft);
  for (const text of ['', 'null', '[]', '{"at":"nowhere","reached":"business"}', '{"at":"owner"}', 'not json'])
    assert.equal(parseDraft(text), null, text);
});
