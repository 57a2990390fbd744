import { AppError } from '../errors';

/** The shape of errors thrown by express.json() (body-parser / raw-body / http-errors). */
interface BodyParserError {
  type: string;
  status: number;
}

function isBodyParserError(error: unknown): error is BodyParserError & Error {
  return (
    error instanceof Error &&
    typeof (error as Partial<BodyParserError>).type === 'string' &&
    typeof (error as Partial<BodyParserError>).status === 'number'
  );
}

function fromBodyParserError(error: BodyParserError & Error, bodyLimit: string): AppError {
  switch (error.type) {
    case 'entity.too.large':
      return new AppError('body_too_large', `The request body exceeds the limit of ${bodyLimit}.`, {
        cause: error,
      });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported_encoding', 'The request body must be JSON in UTF-8, not compressed.', {
        cause: error,
      });
    default:
      // entity.parse.failed, and a body cut short or with a wrong Content-Length: unreadable as JSON either way.
      return new AppError('invalid_json', 'The request body could not be parsed as JSON.', { cause: error });
  }
}

/**
 * Turns what express and its body parser throw on bad input into public 4xx errors (bad input must never
 * look like a 500); any other error is returned unchanged.
 */
export function fromFrameworkError(error: unknown, bodyLimit: string): unknown {
  if (isBodyParserError(error)) return fromBodyParserError(error, bodyLimit);
  // The router fails this way on a path such as /v1/payments/%E0%A4%A (broken percent-encoding).
  if (error instanceof URIError && (error as URIError & { status?: unknown }).status === 400) {
    return new AppError(
      'parameter_invalid',
      'A parameter of the request URL is not valid percent-encoding.',
      {
        cause: error,
      },
    );
  }
  return error;
}
