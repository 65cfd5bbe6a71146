import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

/** Routes whose answers use `status` in place of `result` (the interface's webhook and approval calls). */
export interface EnvelopeConfig {
  envelope?: 'status';
}

function failure(request: FastifyRequest, message: string, data?: unknown) {
  const body: Record<string, unknown> = { result: false, message };
  if ((request.routeOptions.config as EnvelopeConfig | undefined)?.envelope === 'status') body.status = false;
  if (data !== undefined) body.data = data;
  return body;
}

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Turns Ajv's findings into one sentence naming the field, e.g. "amount is required". */
export function describeValidation(issues: ValidationIssue[], context: string): string {
  const described = issues.map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (issue.keyword === 'required') {
      const missing = String(issue.params.missingProperty);
      return `${path ? `${path}.` : ''}${missing} is required`;
    }
    const subject = path || (context === 'body' ? 'the body' : context);
    if (issue.keyword === 'enum') {
      return `${subject} must be one of: ${(issue.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return `${subject} ${issue.message ?? 'is invalid'}`;
  });
  return `Invalid request: ${[...new Set(described)].join('; ')}.`;
}

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The body is empty but its content-type says JSON: send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content-type: send application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The content-length does not match the body.',
};

export function registerEnvelopeErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      return reply.code(error.statusCode).send(failure(request, error.message, error.data));
    }
    if (error.validation) {
      const message = describeValidation(error.validation as ValidationIssue[], error.validationContext ?? 'body');
      return reply.code(400).send(failure(request, message));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send(failure(request, FASTIFY_MESSAGES[error.code] ?? error.message));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(failure(request, 'Something went wrong on our side. Try again in a moment.'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return reply.code(404).send({ result: false, message: `No such endpoint: ${request.method} ${path}. The list is at /docs.` });
  });
}
