/** A failure the caller can act on: answered with its status and `result: false`. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, data?: unknown) => new ApiError(400, message, data);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
