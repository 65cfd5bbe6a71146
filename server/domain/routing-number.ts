const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1];

/** True for a nine-digit US routing number whose ABA checksum holds (e.g. 110000000). */
export function isValidRoutingNumber(text: string): boolean {
  if (!/^\d{9}$/.test(text)) return false;
  const sum = ABA_WEIGHTS.reduce((total, weight, index) => total + weight * Number(text[index]), 0);
  return sum % 10 === 0 && text !== '000000000';
}

/** Bank account numbers are 4 to 17 digits. */
export function isValidAccountNumber(text: string): boolean {
  return /^\d{4,17}$/.test(text);
}
