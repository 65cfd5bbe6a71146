/** A complete sandbox application, as a partner that already holds a merchant's details would send it. */
export function sampleApplication(businessName: string) {
  return {
    BankingInfo: { account_number: '000123456789', bank_name: 'First Sandbox Bank', routing_number: '110000000' },
    BusinessInfo: {
      business_address: '500 Howard St', business_city: 'San Francisco', business_country: 'US',
      business_email: 'hello@corner-bakery.example', business_industry: 'restaurant', business_name: businessName,
      business_phone: '+14155550188', business_state: 'CA', business_zip: '94105', dba: businessName,
      ein: '12-3456789', established_date: '2016-09-01', ownershiptype: 'llc', website: 'https://corner-bakery.example',
    },
    OwnerInfo: {
      address: '12 Valencia St', b_title: 'Owner', city: 'San Francisco', country: 'US', date_of_birth: '1984-02-11',
      email: 'maria@corner-bakery.example', first_name: 'Maria', last_name: 'Lopez', ownership_percent: '100',
      phone: '+14155550199', ssn: '123-45-6789', state: 'CA', zip: '94110',
    },
    ProcessingInfo: {
      annualCCSales: '180000.00', avgTicket: '9.50', legal_b2b: '0', legal_b2c: '100', legal_cnpinternet: '10',
      legal_cnpphoneemail: '0', legal_cp: '90', legal_percentdeliveredover30days: '0', legal_percentdeliveredsameday: '100',
      legal_productssold: 'physical_goods', percentdelievered7days: '0', percentdelivered14days: '0', processing_environment: 'mixed',
    },
  };
}
