/** Receipts of one transaction in an hour, the one sent with the payment, refund or void included, past which a resend is refused. */
export const RECEIPTS_PER_TRANSACTION_PER_HOUR = 3;
/**
 * Messages one phone number or e-mail address gets from one merchant in an hour, past which a resend is refused: the
 * same five a pay button's texts to a phone are held to (services/widgets.ts).
 */
export const MESSAGES_PER_RECIPIENT_PER_HOUR = 5;

const HOUR_MS = 60 * 60 * 1000;

export interface ResendRefusal {
  message: string;
  retryAfterSeconds: number;
}

/** The seconds until the oldest of `times` (ISO instants, oldest first) is an hour old. */
const untilOneLeaves = (times: string[], now: Date) =>
  Math.max(1, Math.ceil((Date.parse(times[0]!) + HOUR_MS - now.getTime()) / 1000));

/**
 * Whether a receipt may be sent again: not when the transaction already had its bound of receipts in the last hour,
 * nor when one of its recipients already had theirs from this merchant. `receipts` and each recipient's `sent` are the
 * times within the last hour, oldest first.
 */
export function resendRefusal(
  receipts: string[],
  recipients: { recipient: string; sent: string[] }[],
  now: Date,
): ResendRefusal | undefined {
  if (receipts.length >= RECEIPTS_PER_TRANSACTION_PER_HOUR) {
    const seconds = untilOneLeaves(receipts, now);
    return {
      message: `This transaction already had the ${RECEIPTS_PER_TRANSACTION_PER_HOUR} receipts an hour it may have: it can be sent again in ${seconds} seconds.`,
      retryAfterSeconds: seconds,
    };
  }
  const busy = recipients.find(({ sent }) => sent.length >= MESSAGES_PER_RECIPIENT_PER_HOUR);
  if (busy) {
    const seconds = untilOneLeaves(busy.sent, now);
    return {
      message: `${busy.recipient} already had the ${MESSAGES_PER_RECIPIENT_PER_HOUR} messages an hour it may get from this merchant: the receipt can be sent again in ${seconds} seconds.`,
      retryAfterSeconds: seconds,
    };
  }
  return undefined;
}
