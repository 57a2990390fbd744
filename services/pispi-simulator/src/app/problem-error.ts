import { STATUS_CODES } from 'node:http';
import type { InvalidParam, Problem7807 } from '@sika/pispi';

/**
 * The simulator's one error type: an RFC 7807 problem, as the API Business answers every error. Use cases
 * throw it; the HTTP layer renders it as is.
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

  toProblem(): Problem7807 {
    return {
      type: 'about:blank',
      title: STATUS_CODES[this.status] ?? 'Error',
      status: this.status,
      detail: this.detail,
      ...(this.invalidParams.length > 0 ? { 'invalid-params': [...this.invalidParams] } : {}),
    };
  }
}

export const unauthorized = (detail = 'Autorisations manquantes'): ProblemError =>
  new ProblemError(401, detail);

export const notFound = (): ProblemError =>
  new ProblemError(404, "La ressource n'existe pas dans le système");

export const invalidParams = (params: readonly Required<InvalidParam>[]): ProblemError =>
  new ProblemError(400, 'Format du message invalide', params);
