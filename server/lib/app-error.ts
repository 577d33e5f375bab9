/** Errors raised at the boundaries, mapped to HTTP statuses in exactly one place. */
export type AppErrorCode = 'invalid_parameter' | 'not_found' | 'unauthorized' | 'store_unavailable' | 'misdirected' | 'forbidden_origin' | 'unsupported_media_type' | 'conflict';

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** The request parameter or field at fault, when there is one. */
    readonly parameter?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}
