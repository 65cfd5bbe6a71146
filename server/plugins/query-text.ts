type PropertySchema = { type?: string | string[] };
type ObjectSchema = { properties?: Record<string, PropertySchema> };

const DECIMAL = /^[+-]?\d{1,15}(\.\d{1,15})?$/;

function decodeOne(text: string, type: string | string[] | undefined): unknown {
  const types = Array.isArray(type) ? type : [type];
  if ((types.includes('integer') || types.includes('number')) && DECIMAL.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/**
 * Query strings and path parameters are text: a value is read as a number only when it is plain decimal digits
 * ("10", "2.5"), and as a boolean only when it is "true" or "false". Anything else ("0x10", "1e3", "Infinity",
 * " 7") stays text, and validation then refuses it with the field's name. (Ajv's own coercion reads all of those.)
 */
export function decodeQueryText(values: unknown, schema: unknown): void {
  const properties = (schema as ObjectSchema | undefined)?.properties;
  if (!properties || values === null || typeof values !== 'object') return;
  const record = values as Record<string, unknown>;
  for (const [name, value] of Object.entries(record)) {
    if (typeof value === 'string' && properties[name]) record[name] = decodeOne(value, properties[name].type);
  }
}
