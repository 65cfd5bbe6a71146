export interface ValidationIssue {
  instancePath: string;
  keyword: string;
  schemaPath?: string;
  message?: string;
  params: Record<string, unknown>;
  /** Present with Ajv's `verbose` option: the schema object that holds the failed keyword. */
  parentSchema?: { properties?: Record<string, unknown> };
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** `["string", "number"]` → "text or a number". */
function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  return types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ');
}

function describeIssue(issue: ValidationIssue, context: string): string {
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const subject = path || (context === 'body' ? 'the body' : context);
  switch (issue.keyword) {
    case 'required':
      return `${path ? `${path}.` : ''}${String(issue.params.missingProperty)} is required`;
    case 'additionalProperties': {
      const field = `${path ? `${path}.` : ''}${String(issue.params.additionalProperty)}`;
      const known = Object.keys(issue.parentSchema?.properties ?? {});
      return `${field} is not a field of this call${known.length ? ` (${path ? `${path} takes` : 'it takes'}: ${known.join(', ')})` : ''}`;
    }
    case 'type':
      return `${subject} must be ${typeWords(issue.params.type)}`;
    case 'enum':
      return `${subject} must be one of: ${(issue.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum':
      return `${subject} ${issue.message ?? 'is out of range'}`;
    default:
      return `${subject} ${issue.message ?? 'is invalid'}`;
  }
}

/**
 * Ajv reports a failed `anyOf` (e.g. an amount that is neither text nor a number) as each branch's failure and then
 * the `anyOf` itself: say what the value broke in one phrase, e.g. "amount must be text or a number".
 */
function foldAnyOf(issues: ValidationIssue[]): ValidationIssue[] {
  const folded: ValidationIssue[] = [];
  for (const issue of issues) {
    if (issue.keyword !== 'anyOf') {
      folded.push(issue);
      continue;
    }
    const branches = folded.filter(
      (b) => b.instancePath === issue.instancePath && b.schemaPath?.startsWith(`${issue.schemaPath}/`),
    );
    for (const branch of branches) folded.splice(folded.indexOf(branch), 1);
    const specific = branches.find((b) => b.keyword !== 'type');
    folded.push(specific ?? { ...issue, keyword: 'type', params: { type: branches.map((b) => b.params.type) } });
  }
  return folded;
}

/** Turns Ajv's findings into one sentence naming the field, e.g. "Invalid request: amount is required." */
export function describeValidation(issues: ValidationIssue[], context: string): string {
  return `Invalid request: ${[...new Set(foldAnyOf(issues).map((issue) => describeIssue(issue, context)))].join('; ')}.`;
}
