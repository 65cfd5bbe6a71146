import type { OperationExample } from '../openapi-examples/operation-example.ts';

type Json = Record<string, any>;

/** What a TypeScript sample assumes, written once so each sample can be pasted as it is. */
const CLIENT_SETUP = [
  "import { PaykitClient } from 'paykit/client';",
  '',
  'const paykit = new PaykitClient({ clientId: process.env.PAYKIT_CLIENT_ID!, secretKey: process.env.PAYKIT_CLIENT_SECRET! });',
  '',
].join('\n');

/** The sample a reader copies: the paykit/client call (with its setup), or the element that makes a widget call. */
function codeSample(example: OperationExample): { lang: string; label: string; source: string } {
  return example.clientLang === 'html'
    ? { lang: 'HTML', label: 'Paykit element', source: example.client }
    : { lang: 'TypeScript', label: 'paykit/client', source: `${CLIENT_SETUP}${example.client}` };
}

/**
 * Puts an operation's example where OpenAPI readers look: each parameter's `example`, the JSON body's and the
 * success answer's `example`, and the client call as `x-codeSamples` (the extension renderers such as Scalar and
 * Redoc show beside their own generated samples).
 */
export function attachExample(operation: Json, example: OperationExample): void {
  for (const parameter of operation['parameters'] ?? []) {
    const values = parameter.in === 'path' ? example.params : parameter.in === 'query' ? example.query : undefined;
    if (values?.[parameter.name] !== undefined) parameter.example = values[parameter.name];
  }
  const body = operation['requestBody']?.content?.['application/json'];
  if (body && example.body) body.example = example.body;
  const success =
    operation['responses']?.['200']?.content?.['application/json'] ??
    operation['responses']?.['200']?.content?.['text/csv'];
  if (success) success.example = example.answer;
  operation['x-codeSamples'] = [codeSample(example)];
}
