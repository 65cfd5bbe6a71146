import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { Refusal, type Reason } from '../domain/refusals.ts';
import { STATUS_OF_REASON } from './refusal-status.ts';
import { isUniqueViolation } from '../store/unique-violation.ts';
import { isStorageUnavailable } from '../store/unavailable.ts';
import { RepeatedErrorLog } from './repeated-errors.ts';
import { describeValidation, type ValidationIssue } from './validation-messages.ts';

/** Routes whose answers use `status` in place of `result` (the interface's webhook and approval calls). */
interface EnvelopeConfig {
  envelope?: 'status';
}

/** The envelope of a refusal: `result: false`, the sentence, and the reason as a stable `code`. */
export function failure(request: FastifyRequest, code: Reason | 'service_error', message: string, data?: unknown) {
  const body: Record<string, unknown> = { result: false, message, code };
  if ((request.routeOptions?.config as EnvelopeConfig | undefined)?.envelope === 'status') body.status = false;
  if (data !== undefined) body.data = data;
  return body;
}

const FASTIFY_REFUSALS: Record<string, [Reason, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_request', 'The body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [
    'invalid_request',
    'The body is empty but its content-type says JSON: send a JSON object.',
  ],
  FST_ERR_CTP_BODY_TOO_LARGE: ['body_too_large', 'The body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_content_type', 'Unsupported content-type: send application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_request', 'The content-length does not match the body.'],
};

/** How long a client should wait before retrying a call the database could not take. */
export const STORAGE_RETRY_AFTER_SECONDS = 2;

export function registerEnvelopeErrors(app: FastifyInstance): void {
  const repeated = new RepeatedErrorLog(app.log);
  const refuse = (request: FastifyRequest, reply: FastifyReply, refusal: Refusal) => {
    if (refusal.retryAfterSeconds !== undefined) reply.header('retry-after', String(refusal.retryAfterSeconds));
    return reply
      .code(STATUS_OF_REASON[refusal.reason])
      .send(failure(request, refusal.reason, refusal.message, refusal.details));
  };
  app.setErrorHandler((error: FastifyError | Refusal, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof Refusal) return refuse(request, reply, error);
    if (error.validation) {
      const message = describeValidation(error.validation as ValidationIssue[], error.validationContext ?? 'body');
      return refuse(request, reply, new Refusal('invalid_request', message));
    }
    if (isUniqueViolation(error)) {
      // Two requests wrote the same key at once; the one that lost may simply be retried.
      request.log.warn({ err: error }, 'concurrent write conflict');
      return refuse(
        request,
        reply,
        new Refusal('conflict', 'Another request changed the same record at the same moment: retry this one.'),
      );
    }
    if (isStorageUnavailable(error)) {
      repeated.report(
        `storage:${error.code ?? 'connection'}`,
        error,
        'the database could not take a request; answering 503',
      );
      return reply
        .code(503)
        .header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS))
        .send(
          failure(
            request,
            'service_error',
            `The database is unavailable for a moment. Retry in ${STORAGE_RETRY_AFTER_SECONDS} seconds, with the same Idempotency-Key so that nothing is done twice.`,
          ),
        );
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const [reason, message] = FASTIFY_REFUSALS[error.code] ?? ['invalid_request', error.message];
      return refuse(request, reply, new Refusal(reason, message));
    }
    repeated.report(`unexpected:${error.code ?? error.name}`, error, 'unexpected error');
    return reply
      .code(500)
      .send(failure(request, 'service_error', 'Something went wrong on our side. Try again in a moment.'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return refuse(
      request,
      reply,
      new Refusal('not_found', `No such endpoint: ${request.method} ${path}. The list is at /docs.`),
    );
  });
}

const FRAMEWORK_REFUSALS: Record<string, [number, Reason, string]> = {
  FST_ERR_BAD_URL: [
    400,
    'invalid_request',
    'The path is not valid: a "%" must be followed by two hexadecimal digits of UTF-8.',
  ],
  // 414 URI Too Long, as docs/decisions.md promises: the request is malformed, not about something that is missing.
  FST_ERR_MAX_PARAM_LENGTH: [
    414,
    'invalid_request',
    'An identifier in the path is longer than 100 characters: no identifier of ours is.',
  ],
};

/** Errors found before routing (bad %-encoding, an over-long path id): the envelope, and never the URL echoed back. */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, request, reply) => {
  const [status, reason, message] = FRAMEWORK_REFUSALS[error.code] ?? [
    400,
    'invalid_request',
    'The request is not valid HTTP.',
  ];
  return (reply as FastifyReply).code(status).send(failure(request as FastifyRequest, reason, message));
};

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are larger than 16 KB.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive.'],
};

/** Requests Node refuses before Fastify sees them (headers over 16 KB, broken HTTP): still the envelope. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'The request is not valid HTTP.',
  ];
  const body = JSON.stringify({ result: false, message, code: 'invalid_request' });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
