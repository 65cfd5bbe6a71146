import type { FastifyInstance } from 'fastify';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Request validation, stricter than Fastify's default in two ways:
 * - JSON bodies keep their JSON types: `true` is not the text "true", `null` is not `false`, "0x10" is not 16.
 *   Query strings and path parameters are text by nature: `decodeQueryText` reads plain decimals and true/false
 *   in them, and nothing else.
 * - Numbers must be finite everywhere: Ajv otherwise lets `Infinity` (and the text "Infinity") through
 *   `integer`, `minimum` and `maximum`.
 */
const COMMON: Options = {
  useDefaults: true,
  allErrors: false,
  strictNumbers: true,
  addUsedSchema: false,
  // The schemas are TypeBox's, with a few OpenAPI-only keywords (e.g. `example`).
  strict: false,
};

function withFormats(ajv: Ajv): Ajv {
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
}

/**
 * Bodies, query strings and path parameters (once `decodeQueryText` has read their plain numbers and booleans):
 * no coercion; `verbose` so that an unknown field's message can name the fields the call takes.
 */
const requestAjv = withFormats(new Ajv({ ...COMMON, coerceTypes: false, removeAdditional: false, verbose: true }));
/** The JSON body of a GET call, checked alone: no defaults, which would override the query string's values. */
const getBodyAjv = withFormats(
  new Ajv({ ...COMMON, useDefaults: false, coerceTypes: false, removeAdditional: false, verbose: true }),
);

const partialValidators = new WeakMap<object, ValidateFunction>();

/**
 * A validator for the JSON body of a GET call: the call's querystring schema without `required` (the query
 * string may carry the rest), and without coercion, since JSON says what type each value has.
 */
export function getBodyValidator(querySchema: object): ValidateFunction {
  let validate = partialValidators.get(querySchema);
  if (!validate) {
    const { required: _required, ...partial } = querySchema as { required?: string[] };
    validate = getBodyAjv.compile(partial);
    partialValidators.set(querySchema, validate);
  }
  return validate;
}

export function registerStrictValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema }) => requestAjv.compile(schema));
}
