import type { OperationExample } from './operation-example.ts';
import { MERCHANT_ID, MERCHANT_KEY, PUBLIC_KEY, SERVICE, callWithBody, code } from './story.ts';

/** Merchant onboarding: the full application, the hosted form, status and the merchant list. */
export const ONBOARDING_EXAMPLES: Record<string, OperationExample> = {
  'POST /onboarding': callWithBody(
    {
      body: {
        BankingInfo: {
          account_number: '004512339876',
          bank_name: 'Bay Area Community Bank',
          routing_number: '121000358',
        },
        BusinessInfo: {
          business_address: '410 Valencia St',
          business_city: 'San Francisco',
          business_country: 'US',
          business_email: 'owner@junipercoffee.example',
          business_industry: 'restaurant',
          business_name: 'Juniper Coffee Co.',
          business_phone: '+14155550100',
          business_state: 'CA',
          business_zip: '94103',
          dba: 'Juniper Coffee',
          ein: '84-1234567',
          established_date: '2019-04-01',
          ownershiptype: 'llc',
          website: 'https://junipercoffee.example',
        },
        OwnerInfo: {
          address: '88 Guerrero St',
          b_dl_number: 'D7654321',
          b_title: 'Owner',
          city: 'San Francisco',
          country: 'US',
          date_of_birth: '1986-09-23',
          email: 'maya.chen@junipercoffee.example',
          first_name: 'Maya',
          last_name: 'Chen',
          ownership_percent: '100',
          phone: '+14155550101',
          ssn: '123-45-6789',
          state: 'CA',
          zip: '94103',
        },
        ProcessingInfo: {
          annualCCSales: '420000.00',
          avgTicket: '14.50',
          legal_b2b: '10',
          legal_b2c: '90',
          legal_cnpinternet: '25',
          legal_cnpphoneemail: '5',
          legal_cp: '70',
          legal_percentdeliveredover30days: '0',
          legal_percentdeliveredsameday: '95',
          legal_productssold: 'physical_goods',
          percentdelievered7days: '5',
          percentdelivered14days: '0',
          processing_environment: 'mixed',
        },
      },
      answer: {
        result: true,
        message: 'Merchant onboarded; the application waits for review.',
        data: {
          businessname: 'Juniper Coffee Co.',
          email: 'owner@junipercoffee.example',
          merchant_key: MERCHANT_KEY,
          public_key: PUBLIC_KEY,
          merchant_id: MERCHANT_ID,
        },
      },
    },
    'const merchant = await paykit.merchants.onboard',
    "// Keep merchant.merchant_key (the merchant's API key) on your server; merchant.public_key goes into its pages.",
  ),
  'GET /auth/create-session': {
    query: { is_publickey: true },
    answer: {
      result: true,
      message: 'Session created.',
      data: {
        sessionToken: 'ost_RjIz3IKlILfTNF0LU6dsc4yQj_DNV0I6O5ia6wGjlBg',
        expires_at: '2026-03-10T15:35:21.020Z',
        public_key: 'pk_client_m8ewDnsKuHjZjMA-kSFsSW74F7ecZW',
      },
    },
    client: code`
      const { sessionToken, public_key } = await paykit.merchants.createSession({ publicKey: true });
    `,
  },
  'POST /auth/onboarding/{session_token}': {
    params: { session_token: 'ost_RjIz3IKlILfTNF0LU6dsc4yQj_DNV0I6O5ia6wGjlBg' },
    body: {
      company_id: 'harbor-bakery-17',
      refresh_url: 'https://partner.example/onboarding/refresh?company=harbor-bakery-17',
      BusinessInfo: {
        business_name: 'Harbor Bakery LLC',
        business_email: 'hello@harborbakery.example',
        business_phone: '+14155550188',
        business_address: '12 Embarcadero',
        business_city: 'San Francisco',
        business_state: 'CA',
        business_zip: '94111',
        business_country: 'US',
      },
    },
    answer: {
      result: true,
      message: 'Onboarding link created: send it to the merchant.',
      data: {
        merchant_id: 'm_10b83668-ef60-40d5-ae6a-919cbf7d18f5',
        company_id: 'harbor-bakery-17',
        onboarding_link: `${SERVICE}/onboard/obl_aoCpTCHCsx7_OFpe-YlCOfnnTSRbW0zfcNbtzbiSI1Y`,
        expires_at: '2026-03-10T15:20:21.031Z',
      },
    },
    client: code`
      const { merchant_id, onboarding_link } = await paykit.merchants.startHostedOnboarding('ost_RjIz3IKlILfTNF0LU6dsc4yQj_DNV0I6O5ia6wGjlBg', {
        company_id: 'harbor-bakery-17',
        refresh_url: 'https://partner.example/onboarding/refresh?company=harbor-bakery-17',
        BusinessInfo: {
          business_name: 'Harbor Bakery LLC',
          business_email: 'hello@harborbakery.example',
          business_phone: '+14155550188',
          business_address: '12 Embarcadero',
          business_city: 'San Francisco',
          business_state: 'CA',
          business_zip: '94111',
          business_country: 'US',
        },
      });
    `,
  },
  'POST /auth/onboarding-link': {
    body: {
      merchant_id: 'm_10b83668-ef60-40d5-ae6a-919cbf7d18f5',
      refresh_url: 'https://partner.example/onboarding/refresh?company=harbor-bakery-17',
    },
    answer: {
      result: true,
      message: 'Onboarding link created: send the merchant to it.',
      data: {
        merchant_id: 'm_10b83668-ef60-40d5-ae6a-919cbf7d18f5',
        company_id: 'harbor-bakery-17',
        onboarding_link: `${SERVICE}/onboard/obl_Q2vXoS9c1kUe7bYp0mTn4dLw8hAjF3rGzK5sNqWy6Ec`,
        expires_at: '2026-03-10T15:35:40.212Z',
      },
    },
    client: code`
      // On your refresh_url's page, once you know the merchant: a new link, then send the merchant straight to it.
      const { onboarding_link } = await paykit.merchants.refreshOnboardingLink('m_10b83668-ef60-40d5-ae6a-919cbf7d18f5', {
        refresh_url: 'https://partner.example/onboarding/refresh?company=harbor-bakery-17',
      });
    `,
  },
  'POST /auth/get-onboarding-status': {
    body: { merchant_key: MERCHANT_KEY },
    answer: { result: true, message: 'Onboarding status retrieved.', data: { merchantStatus: 'completed' } },
    client: code`
      const { merchantStatus } = await paykit.merchants.onboardingStatus('${MERCHANT_KEY}');
    `,
  },
  'GET /merchant': {
    answer: {
      result: true,
      message: 'Merchants retrieved.',
      data: [
        {
          businessname: 'Juniper Coffee Co.',
          email: 'owner@junipercoffee.example',
          first_name: 'Maya',
          last_name: 'Chen',
          join_date: '2026-03-10T14:05:21.193Z',
          merchant_id: MERCHANT_ID,
          phonenumber: '+14155550100',
          public_data: { public_key: PUBLIC_KEY },
          website: 'https://junipercoffee.example',
        },
      ],
    },
    client: code`
      const merchants = await paykit.merchants.list();
      for (const merchant of merchants) console.log(merchant.businessname, merchant.public_data.public_key);
    `,
  },
};
