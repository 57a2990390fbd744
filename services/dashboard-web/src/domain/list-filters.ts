import { AppError } from '@sika/platform/pure';

/** A day as the date inputs send it; days are Africa/Abidjan's, which is UTC all year (no daylight saving). */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function dayStart(value: string, param: string): Date {
  const date = new Date(`${value}T00:00:00.000Z`);
  if (!DAY.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new AppError('parameter_invalid', `${param} must be a date (YYYY-MM-DD).`, { param });
  }
  return date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ListFilters {
  /** Payments' status. */
  status?: string;
  /** Balance movements' type. */
  type?: string;
  reference?: string;
  /** Inclusive: the start of the day typed as "from". */
  createdFrom?: Date;
  /** Exclusive: the end of the day typed as "to", so that "to" includes its own day, as people read it. */
  createdTo?: Date;
  startingAfter?: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined;

/**
 * The filters of a list page, from its query string: one of the values the list knows (a payment's status, a
 * movement's type), a reference, a range of days, the cursor. An empty field is no filter; a wrong one is
 * named, never ignored.
 */
export function parseListFilters(
  query: Record<string, unknown>,
  choice: { param: 'status' | 'type'; values: readonly string[] },
  idPattern: RegExp,
): ListFilters {
  const filters: ListFilters = {};
  const { param, values } = choice;
  const chosen = text(query[param]);
  if (chosen !== undefined) {
    if (!values.includes(chosen)) {
      throw new AppError('parameter_invalid', `${param} must be one of ${values.join(', ')}.`, { param });
    }
    filters[param] = chosen;
  }
  const reference = text(query['reference']);
  if (reference !== undefined) filters.reference = reference;
  const from = text(query['created_from']);
  if (from !== undefined) filters.createdFrom = dayStart(from, 'created_from');
  const to = text(query['created_to']);
  if (to !== undefined) filters.createdTo = new Date(dayStart(to, 'created_to').getTime() + DAY_MS);
  if (filters.createdFrom && filters.createdTo && filters.createdFrom >= filters.createdTo) {
    throw new AppError('parameter_invalid', 'created_to must not be before created_from.', {
      param: 'created_to',
    });
  }
  const startingAfter = text(query['starting_after']);
  if (startingAfter !== undefined) {
    if (!idPattern.test(startingAfter)) {
      throw new AppError('parameter_invalid', 'starting_after is not an id of this list.', {
        param: 'starting_after',
      });
    }
    filters.startingAfter = startingAfter;
  }
  return filters;
}
