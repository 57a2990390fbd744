/** What every list query shares (spec §4): a page and a window on `created`. */
interface ListQuery {
  limit: number;
  starting_after?: string | undefined;
  created_from?: string | undefined;
  created_to?: string | undefined;
}

const optionalDate = (text: string | undefined) => (text === undefined ? undefined : new Date(text));

/** The page and `created` window of a list request to a service, from the validated public query. */
export function pageAndWindow(query: ListQuery) {
  return {
    page: { limit: query.limit, startingAfter: query.starting_after },
    createdFrom: optionalDate(query.created_from),
    createdTo: optionalDate(query.created_to),
  };
}
