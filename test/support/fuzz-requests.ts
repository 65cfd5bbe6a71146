import fc from 'fast-check';

/** What the served OpenAPI says of one operation, as far as the fuzzer needs it. */
export interface Operation {
  method: string;
  /** The path template under /api/v1, e.g. `/customers/{customerId}`. */
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  body: JsonSchema | undefined;
  responses: Record<string, JsonSchema | undefined>;
  /** Whether its success is CSV text (an export) rather than the envelope. */
  csv: boolean;
  /** How the call authenticates: client credentials, a merchant public key in the path, or a widget session token. */
  auth: 'basic' | 'public-key' | 'session';
}

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
};

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /**
   * A header with control bytes (NUL, ESC, DEL, a lone CR or LF…) that no client library would send: the request goes
   * over a raw socket, bytes as they are.
   */
  hostileHeader?: [string, string] | undefined;
  body: Buffer | undefined;
  /** A one-line account of what was sent, for the failure message. */
  about: string;
}

/** Real values the fuzzer mixes into requests so that they get past the first lookup and reach deeper code. */
export interface Fixtures {
  merchantKey: string;
  merchantId: string;
  publicKey: string;
  customerId: string;
  saleId: string;
  preauthId: string;
  achId: string;
  linkId: string;
  payLink: string;
  sessionToken: string;
  onboardingSession: string;
  eventId: string;
  pageOrigin: string;
  basicAuth: string;
}

/** Text a hostile caller sends: NUL, lone surrogates, right-to-left marks, emoji, long runs, numbers that are not. */
const NASTY_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001',
  'a\u0007b',
  '\u001b[31m',
  '\u001f',
  '\u007f',
  ' x\t',
  '\u000b\u000c',
  '\u0085',
  '\ud800',
  '\udfff\ud800',
  '\u202eevil',
  '\u200b',
  '💳🧾',
  'é'.normalize('NFD'),
  'x'.repeat(300),
  '9'.repeat(40),
  '1e400',
  'Infinity',
  '-Infinity',
  'NaN',
  '-1',
  '0',
  '0x10',
  '1e3',
  ' 7 ',
  '10.555',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  'null',
  'true',
  '{}',
  '[]',
  '\r\n\r\nX-Injected: 1',
];

const nastyText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
);

const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1, 2.5, 1e20, 2 ** 53 + 1, 1e-7, 999999.99, 1000000, 8784, 8785, 168, 169),
);

/** Any JSON value, including nested ones a field never expects. */
const anyJson = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: nastyText },
  { weight: 1, arbitrary: nastyNumber },
);

/** Values that make sense for a field of this name, taken from the fixtures, or plausible amounts and ids. */
function sensible(name: string, fixtures: Fixtures): fc.Arbitrary<unknown> | undefined {
  const amounts = fc.constantFrom('1.00', '0.01', '10', '25.50', 2.5, 7);
  const table: Record<string, fc.Arbitrary<unknown>> = {
    merchant_key: fc.constant(fixtures.merchantKey),
    merchant_id: fc.constant(fixtures.merchantId),
    transaction_id: fc.constantFrom(fixtures.saleId, fixtures.preauthId, fixtures.achId),
    customerId: fc.constant(fixtures.customerId),
    public_key: fc.constant(fixtures.publicKey),
    link_id: fc.constant(fixtures.linkId),
    event_id: fc.constant(fixtures.eventId),
    session_token: fc.constant(fixtures.onboardingSession),
    pay_link: fc.constant(fixtures.payLink),
    webhook_url: fc.constantFrom('http://127.0.0.1:9/hooks', 'https://partner.example/hooks'),
    amount: amounts,
    new_authorized_amount: amounts,
    last_authorized_amount: amounts,
    discount: fc.constantFrom('0.50', '0'),
    order_id: fc.uuid(),
    email: fc.constantFrom('payer@example.com', 'a@b.co'),
    phone_number: fc.constantFrom('+14155550123', '4155550124'),
    recipient_phone: fc.constantFrom('+14155550125', '(415) 555-0126'),
    hours: fc.constantFrom(0.5, 1, 24),
    card_number: fc.constantFrom('4242424242424242', '4000000000000002', '4000000000003220'),
    exp_month: fc.integer({ min: 1, max: 12 }),
    exp_year: fc.constantFrom(2035, 30),
    cvc: fc.constantFrom('123', '1234'),
    routing_number: fc.constant('110000000'),
    account_number: fc.constant('000123456789'),
    from_date: fc.constantFrom('2020-01-01', '2026-11-22'),
    to_date: fc.constantFrom('2030-01-01', '2026-11-22'),
    limit: fc.constantFrom('20', '1', '100'),
    allowed_origins: fc.constant([fixtures.pageOrigin]),
    primary_color: fc.constant('#123456'),
    first_name: fc.constant('Fuzz'),
    last_name: fc.constant('Tester'),
  };
  return table[name];
}

/** A value for a schema: sensible for its field name or type most of the time, hostile otherwise. */
function valueFor(schema: JsonSchema | undefined, name: string, fixtures: Fixtures, depth = 0): fc.Arbitrary<unknown> {
  const known = sensible(name, fixtures);
  const typed = typedValue(schema, name, fixtures, depth);
  return fc.oneof(
    { weight: 5, arbitrary: known ?? typed },
    { weight: 2, arbitrary: typed },
    { weight: 1, arbitrary: anyJson },
  );
}

function typedValue(
  schema: JsonSchema | undefined,
  name: string,
  fixtures: Fixtures,
  depth: number,
): fc.Arbitrary<unknown> {
  if (!schema) return anyJson;
  if (schema.enum)
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: nastyText });
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((branch) => typedValue(branch, name, fixtures, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return nastyText;
    case 'integer':
    case 'number':
      return nastyNumber;
    case 'boolean':
      return fc.oneof(
        { weight: 4, arbitrary: fc.boolean() },
        { weight: 1, arbitrary: fc.constantFrom('true', 'false', null, 0, 1) },
      );
    case 'array':
      return fc.array(valueFor(schema.items, name, fixtures, depth + 1), { maxLength: 4 });
    case 'object':
      return depth > 3 ? fc.constant({}) : objectFor(schema, fixtures, depth + 1);
    default:
      return anyJson;
  }
}

/** An object of the schema's fields: required ones usually present, optional ones sometimes. */
function objectFor(schema: JsonSchema, fixtures: Fixtures, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(properties).map(([name, property]) =>
    fc
      .tuple(fc.constant(name), valueFor(property, name, fixtures, depth), fc.integer({ min: 0, max: 9 }))
      .map(([key, value, roll]) =>
        // Required: present 9 times in 10. Optional: present 4 times in 10.
        (required.has(key) ? roll > 0 : roll < 4) ? ([key, value] as const) : undefined,
      ),
  );
  return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.filter((pair) => pair !== undefined)));
}

/** A body: mostly close to valid, then with one field wrong, missing, added, or something else entirely. */
function bodyValue(schema: JsonSchema, fixtures: Fixtures): fc.Arbitrary<unknown> {
  const valid = objectFor(schema, fixtures);
  const names = Object.keys(schema.properties ?? {});
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, names.length ? fc.constantFrom(...names) : fc.constant('x'), anyJson)
        .map(([object, key, value]) => ({ ...object, [key]: value })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.string({ maxLength: 12 }), anyJson)
        .map(([object, key, value]) => ({ ...object, [key || 'extra']: value })),
    },
    { weight: 1, arbitrary: anyJson },
  );
}

const DEEP = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;

/** The bytes of a body and their content-type: JSON mostly, and every way a body can be wrong. */
function encoded(value: unknown): fc.Arbitrary<{ body: Buffer | undefined; type: string | undefined; how: string }> {
  const json = JSON.stringify(value) ?? 'null';
  const flat =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? new URLSearchParams(
          Object.entries(value as Record<string, unknown>).map(([k, v]) => [
            k,
            typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
          ]),
        ).toString()
      : 'a=1';
  const variants: [number, { body: Buffer | undefined; type: string | undefined; how: string }][] = [
    [8, { body: Buffer.from(json), type: 'application/json', how: 'json' }],
    [
      1,
      {
        body: Buffer.from(json.replace(/(:\s*)-?\d+(\.\d+)?/, '$11e400')),
        type: 'application/json',
        how: 'json with 1e400',
      },
    ],
    [1, { body: Buffer.from(DEEP), type: 'application/json', how: 'json nested 5000 deep' }],
    [
      1,
      {
        body: Buffer.concat([
          Buffer.from(json.slice(0, -1) || '{'),
          Buffer.from(',"bad":"'),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
          Buffer.from('"}'),
        ]),
        type: 'application/json',
        how: 'invalid utf-8',
      },
    ],
    [1, { body: Buffer.from(json), type: 'text/plain', how: 'json as text/plain' }],
    [1, { body: Buffer.from(flat), type: 'application/x-www-form-urlencoded', how: 'form' }],
    [1, { body: Buffer.from('<a>1</a>'), type: 'application/xml', how: 'xml' }],
    [1, { body: Buffer.from(json), type: undefined, how: 'no content-type' }],
    [1, { body: Buffer.from(''), type: 'application/json', how: 'empty json' }],
    [
      1,
      {
        body: Buffer.from(json.slice(0, Math.max(1, json.length >> 1))),
        type: 'application/json',
        how: 'truncated json',
      },
    ],
    [1, { body: Buffer.from(json), type: 'application/json; charset=latin1', how: 'json latin1' }],
    [1, { body: undefined, type: undefined, how: 'no body' }],
  ];
  return fc.oneof(...variants.map(([weight, variant]) => ({ weight, arbitrary: fc.constant(variant) })));
}

/** A path parameter: the fixture's, or junk, or a broken or over-long encoding. */
function pathValue(name: string, fixtures: Fixtures): fc.Arbitrary<string> {
  const known = sensible(name, fixtures) as fc.Arbitrary<string> | undefined;
  return fc.oneof(
    { weight: 5, arbitrary: known ?? fc.constant('x') },
    { weight: 2, arbitrary: nastyText.filter((text) => text.length > 0).map(encodeURIComponentSafe) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%zz',
        '%E0%A4%A',
        '%00',
        '%01',
        '%1b',
        '%7f',
        '%0d%0a',
        '%2e%2e',
        'a'.repeat(150),
        '%C0%80',
      ),
    },
  );
}

function encodeURIComponentSafe(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate cannot be encoded as UTF-8: send its code unit as a broken escape instead.
    return `%${text.charCodeAt(0).toString(16).slice(-2)}x`;
  }
}

function queryString(query: Record<string, JsonSchema>, fixtures: Fixtures): fc.Arbitrary<string> {
  const entries = Object.entries(query).map(([name, schema]) =>
    fc
      .tuple(fc.constant(name), valueFor(schema, name, fixtures), fc.integer({ min: 0, max: 9 }))
      .map(([key, value, roll]) => {
        if (roll < 3) return '';
        const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
        // Now and then the same key twice: the query parser then gives an array.
        return roll === 9
          ? `${key}=${encodeURIComponentSafe(text)}&${key}=2`
          : `${key}=${encodeURIComponentSafe(text)}`;
      }),
  );
  return fc.tuple(...entries).map((parts) => parts.filter(Boolean).join('&'));
}

/** Control bytes a header may carry (the C0 set but tab, and DEL), one of them in otherwise printable text. */
const CONTROL_BYTES = [
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).filter((c) => c !== '\t'),
  '\u007f',
];
const controlled = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...CONTROL_BYTES), fc.string({ maxLength: 12 }))
  .map(([a, c, b]) => `${headerSafe(a)}${c}${headerSafe(b)}`);

/** A header with a control byte in its value, or the credentials' own bytes (base64 carries any) with one in them. */
function hostileHeader(fixtures: Fixtures, auth: Operation['auth']): fc.Arbitrary<[string, string] | undefined> {
  const basic = (text: string) => `Basic ${Buffer.from(text, 'latin1').toString('base64')}`;
  const [id, secret] = Buffer.from(fixtures.basicAuth.slice(6), 'base64').toString('utf8').split(':') as [
    string,
    string,
  ];
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom(
          'authorization',
          'idempotency-key',
          'origin',
          'content-type',
          'cookie',
          'x-forwarded-for',
          'accept-language',
          'if-none-match',
          'x-fuzz',
        ),
        controlled,
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...CONTROL_BYTES), fc.integer({ min: 0, max: 3 }))
        .map(([c, where]): [string, string] => {
          if (auth === 'session') return ['authorization', `Bearer ${fixtures.sessionToken}${c}`];
          const spelled = [`${c}${id}:${secret}`, `${id}${c}:${secret}`, `${id}:${secret}${c}`, `${c}:x`][where]!;
          return ['authorization', basic(spelled)];
        }),
    },
  );
}

/** Every request the fuzzer may send to one operation. */
export function requestsFor(operation: Operation, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const params = fc.tuple(...operation.pathParams.map((name) => pathValue(name, fixtures)));
  const query = queryString(operation.query, fixtures);
  const bodySchema =
    operation.body ?? (operation.method === 'GET' ? { type: 'object', properties: operation.query } : undefined);
  const body = bodySchema
    ? fc.oneof(
        { weight: operation.method === 'GET' ? 3 : 0, arbitrary: fc.constant(undefined) },
        { weight: 4, arbitrary: bodyValue(bodySchema, fixtures) },
      )
    : fc.constant(undefined);
  const origin = fc.constantFrom<string | undefined>(fixtures.pageOrigin, undefined, 'https://evil.example');
  const idempotencyKey = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.oneof(fc.uuid(), nastyText) },
  );
  const bearer = fc.oneof(
    { weight: 4, arbitrary: fc.constant(`Bearer ${fixtures.sessionToken}`) },
    { weight: 1, arbitrary: nastyText.map((t) => `Bearer ${t}`) },
  );
  return fc
    .tuple(params, query, body, origin, idempotencyKey, bearer, hostileHeader(fixtures, operation.auth))
    .chain(([values, search, bodyValue, pageOrigin, key, session, hostile]) =>
      (bodyValue === undefined
        ? fc.constant({ body: undefined, type: undefined, how: 'no body' })
        : encoded(bodyValue)
      ).map((encoding) => {
        let path = `/api/v1${operation.path}`;
        operation.pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, values[i]!)));
        if (search) path += `?${search}`;
        const headers: Record<string, string> = {};
        if (operation.auth === 'basic') headers.authorization = fixtures.basicAuth;
        if (operation.auth === 'session') headers.authorization = headerSafe(session);
        if (operation.auth !== 'basic' && pageOrigin) headers.origin = pageOrigin;
        if (key !== undefined && operation.method === 'POST') headers['idempotency-key'] = headerSafe(key);
        if (encoding.type) headers['content-type'] = encoding.type;
        if (encoding.body) headers['content-length'] = String(encoding.body.length);
        if (hostile) delete headers[hostile[0]];
        return {
          method: operation.method,
          path,
          headers,
          hostileHeader: hostile,
          body: encoding.body,
          about: `${operation.method} ${path} [${encoding.how}]${hostile ? ` ${hostile[0]}: ${JSON.stringify(hostile[1])}` : ''} ${encoding.body ? encoding.body.subarray(0, 300).toString('utf8') : ''}`,
        };
      }),
    );
}

/** Header values may carry only visible Latin-1 text; anything else is replaced, as a client library would refuse it. */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}
