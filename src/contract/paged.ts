import { type, type Type } from 'arktype';

/** The data layer's paged shape: results and numberOfResults. */
export const pagedResults = <T>(item: Type<T>) => type({ results: item.array(), numberOfResults: 'number' });
