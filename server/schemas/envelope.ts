import { Type, type TSchema, type TUnsafe } from 'typebox';

/** `{ result, message, data }`: the interface's answer to most calls. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ result: Type.Boolean(), message: Type.String(), data });

/** `{ status, message }`: the interface's answer to the webhook and approval calls. */
export const StatusAnswer = Type.Object({ status: Type.Boolean(), message: Type.String() });
export const StatusEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ status: Type.Boolean(), message: Type.String(), data });

export const Failure = Type.Object(
  {
    result: Type.Literal(false),
    status: Type.Optional(Type.Literal(false)),
    message: Type.String(),
    data: Type.Optional(Type.Unknown()),
  },
  { description: 'What was wrong and what to send instead.' },
);

/** The failure answers every authenticated route may give. */
export const failures = {
  400: Failure, 401: Failure, 402: Failure, 403: Failure, 404: Failure, 409: Failure, 410: Failure, 413: Failure, 415: Failure, 422: Failure,
} as const;

export const MerchantKey = Type.String({ minLength: 1, maxLength: 200, description: "The merchant's API key." });
/** Timestamps are ISO 8601 UTC text. */
export const Instant = Type.String({ format: 'date-time' });

/** A string from a fixed list, validated as JSON Schema `enum` so the error names the allowed values. */
export const OneOf = <const T extends readonly string[]>(values: T, description?: string): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });
