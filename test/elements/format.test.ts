/**
 * Amounts in US English are written without Intl (its first use costs a phone's CPU on the way to the first render,
 * src/shared/format.ts): what they read must be exactly what Intl writes, in the browser's own Intl.
 */
import { expect } from '@open-wc/testing';
import { formatMoney } from '../../src/shared/format.ts';

describe('formatMoney in US English', () => {
  const intl = (locale: string, amount: string | number) =>
    new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(amount as number);

  it('writes every plain amount as Intl does', () => {
    const amounts: (string | number)[] = [
      '0',
      '0.00',
      '0.5',
      '1',
      '9.99',
      '10.5',
      '25.00',
      '100',
      '999.9',
      '1000',
      '1234.56',
      '12345.6',
      '100000',
      '999999.99',
      '1000000',
      '9999999999999.99',
      ' 25.00 ',
      25,
      10.5,
      1234.5,
      0,
      1e15 - 1,
    ];
    for (let i = 0; i < 500; i++)
      amounts.push(
        `${Math.floor(Math.random() * 10 ** Math.floor(Math.random() * 14))}.${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`,
      );
    for (const locale of ['en', 'en-US'])
      for (const amount of amounts)
        expect(formatMoney(amount, locale), `${locale} ${JSON.stringify(amount)}`).to.equal(intl(locale, amount));
  });

  it('leaves the rest to Intl: other locales, other shapes', () => {
    for (const [amount, locale] of [
      ['25.00', 'en-GB'],
      ['25.00', 'fr-FR'],
      ['007.5', 'en'],
      ['-5.00', 'en-US'],
      ['1.005', 'en'],
      [0.1 + 0.2, 'en'],
      ['1e3', 'en'],
    ] as const) {
      expect(formatMoney(amount, locale), `${locale} ${amount}`).to.equal(intl(locale, amount));
    }
  });
});
