import assert from 'node:assert/strict';
import { createPaymentRequest, type PaymentRequestInput } from '../../server/services/payment-requests.ts';
import type { MerchantAccount } from '../../server/store/merchants.ts';
import type { TestService } from '../support/service.ts';
import { validApplication } from '../support/fixtures.ts';

/** A merchant onboarded and approved through the real API, as a partner would. */
export async function approvedMerchant(
  service: TestService,
  businessName = 'Blue Bottle Cafe',
): Promise<MerchantAccount> {
  const onboarded = await service.api('POST', '/onboarding', {
    json: validApplication({ BusinessInfo: { business_name: businessName } }),
  });
  assert.equal(onboarded.status, 200, onboarded.text);
  const merchantId = onboarded.body.data.merchant_id as string;
  const approved = await service.api('POST', '/approve-merchant', { json: { merchant_id: merchantId } });
  assert.equal(approved.status, 200, approved.text);
  const merchant = await service.store.merchants.findById(service.client.clientId, merchantId);
  assert.ok(merchant, 'the approved merchant is stored');
  return merchant;
}

let orders = 0;

/** A pay link made by the service's own request code; returns its path on the service. */
export async function newPayLink(
  service: TestService,
  merchant: MerchantAccount,
  input: Partial<PaymentRequestInput> = {},
) {
  const { change, result: created } = await createPaymentRequest(
    service.store,
    merchant,
    { amount: '10.00', order_id: `order-${++orders}-${Date.now()}`, ...input },
    { source: 'pay_link', now: service.clock.now(), publicUrl: service.baseUrl },
  );
  assert.ok(await service.store.write(change));
  const url = new URL(created.payLink);
  assert.equal(url.origin, service.baseUrl);
  return {
    path: url.pathname,
    token: url.pathname.split('/').pop()!,
    request: created.request,
    qrCodeLink: created.qrCodeLink,
  };
}

/** A card form post as the page's card form sends it: the expiry as one `MM / YY` field. */
export function cardForm(number: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    method: 'card',
    card_name: 'Jane Doe',
    card_number: number,
    exp: `12 / ${String(new Date().getUTCFullYear() + 3).slice(2)}`,
    cvc: '123',
    ...extra,
  };
}

/** The nonce of the page's one inline script, which its CSP allows. */
export function scriptNonce(page: string): string | undefined {
  return /<script nonce="([^"]+)">/.exec(page)?.[1];
}

export const APPROVE = '4242424242424242';
export const DECLINE = '4000000000000002';
export const NO_FUNDS = '4000000000009995';
export const CHALLENGE = '4000000000003220';
