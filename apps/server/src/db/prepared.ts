/** A list of ids as one array parameter (`= any(…)`): the statement's text does not change with their number. */
export const idArray = (ids: readonly number[]): string => `{${ids.map((id) => Math.trunc(id)).join(",")}}`;
