import { Type, type TProperties, type TSchema, type TUnsafe } from 'typebox';
import { REASONS } from '../domain/refusals.ts';

/** `{ result, message, data }`: the interface's answer to most calls. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ result: Type.Boolean(), message: Type.String(), data });

/** `{ status, message }`: the interface's answer to the webhook and approval calls. */
export const StatusAnswer = Type.Object({ status: Type.Boolean(), message: Type.String() });
export const StatusEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ status: Type.Boolean(), message: Type.String(), data });

/** A string from a fixed list, validated as JSON Schema `enum` so the error names the allowed values. */
export const OneOf = <const T extends readonly string[]>(values: T, description?: string): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

export const Failure = Type.Object(
  {
    result: Type.Literal(false),
    status: Type.Optional(Type.Literal(false)),
    message: Type.String({ description: 'What was wrong and what to send instead, in a sentence.' }),
    code: OneOf(
      [...REASONS, 'service_error'] as const,
      'Why, as a stable code to branch on: the same for every message of its kind.',
    ),
    data: Type.Optional(Type.Unknown()),
  },
  { title: 'Failure', description: 'A refusal: nothing was changed.' },
);

/** The failure answers every authenticated route may give. */
export const failures = {
  400: Failure,
  401: Failure,
  402: Failure,
  403: Failure,
  404: Failure,
  409: Failure,
  413: Failure,
  415: Failure,
  422: Failure,
  429: Failure,
} as const;

export const MerchantKey = Type.String({ minLength: 1, maxLength: 200, description: "The merchant's API key." });
/** Timestamps are ISO 8601 UTC text. */
export const Instant = Type.String({ format: 'date-time' });

/** A request body: fields beyond the listed ones are refused with a 400 that names them, never ignored. */
export const Body = <T extends TProperties>(properties: T, options: { description?: string } = {}) =>
  Type.Object(properties, { ...options, additionalProperties: false });

/**
 * An amount: decimal text ("10.50") or a JSON number (10.5), read exactly as its text; never more than two decimals.
 * The interface sends text for most calls and a number for a customer charge.
 */
export const Money = (description: string) =>
  Type.Unsafe<string | number>({
    anyOf: [{ type: 'string', minLength: 1, maxLength: 20 }, { type: 'number' }],
    description,
  });

/** Paging: pages from 1, at most a million of them, so an offset is always a plain number. */
export const PageNumber = (description = 'Page number, from 1.') =>
  Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description });
export const PageSize = (description = 'Items per page, 1 to 100.') =>
  Type.Integer({ minimum: 1, maximum: 100, default: 20, description });

/**
 * The transactions list's page size: the interface names it `limit` and sends it as text ("20"), which a GET's JSON
 * body keeps, so the service takes a whole number or its text; the document publishes the integer (see
 * publishDocument), the type of every other page size. The bounds are checked by the route, in one message.
 */
export const PageLimit = () =>
  Type.Unsafe<number | string>({
    anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 20 }],
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Items per page, 1 to 100.',
  });

/** Paging by cursor, beside the page number (issue 31): a page costs its own rows, however deep it is. */
export const Cursor = () =>
  Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'The next_cursor of an earlier answer: the page after it, whatever the page number says.',
    }),
  );
export const CursorFields = {
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page.',
  }),
  has_more: Type.Boolean({ description: 'Whether rows follow this page.' }),
};
