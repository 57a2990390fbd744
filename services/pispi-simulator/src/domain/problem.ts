import type { InvalidParam } from '@sika/pispi';

/**
 * The simulator's one error type: an RFC 7807 problem, as the API Business answers every error. Use cases
 * throw it; the HTTP layer renders it (transport/http/problem-middleware.ts).
 */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';

  constructor(
    readonly status: number,
    readonly detail: string,
    readonly invalidParams: readonly Required<InvalidParam>[] = [],
  ) {
    super(detail);
  }
}

export const unauthorized = (detail = 'Autorisations manquantes'): ProblemError =>
  new ProblemError(401, detail);

export const notFound = (): ProblemError =>
  new ProblemError(404, "La ressource n'existe pas dans le système");

export const invalidParams = (params: readonly Required<InvalidParam>[]): ProblemError =>
  new ProblemError(400, 'Format du message invalide', params);

export const conflict = (detail: string): ProblemError => new ProblemError(409, detail);
