// The amount filter of the tables: an exact amount or a min/max range, as a filter value both ways (form ⇄ the
// documented [eq]/[gte]/[lte] syntax), and what is wrong with a form's amounts. All pure.
import { encodeFilter, parseFilter, type FilterClause } from './list-query.ts';

export type AmountFilter = { mode: 'exact' | 'range'; exact: string; min: string; max: string };
export const emptyAmountFilter: AmountFilter = { mode: 'range', exact: '', min: '', max: '' };
const amountPattern = /^\d{1,13}(\.\d{1,3})?$/;

/** Exact match, or min and/or max; empty parts are ignored. */
export function encodeAmount(amount: AmountFilter): string | undefined {
  const exact = amount.exact.trim();
  const min = amount.min.trim();
  const max = amount.max.trim();
  if (amount.mode === 'exact') return exact ? encodeFilter([{ operator: 'eq', value: exact }]) : undefined;
  const clauses: FilterClause[] = [];
  if (min) clauses.push({ operator: 'gte', value: min });
  if (max) clauses.push({ operator: 'lte', value: max });
  return clauses.length > 0 ? encodeFilter(clauses) : undefined;
}

export function decodeAmount(raw: string | undefined): AmountFilter {
  const clauses = raw === undefined ? [] : parseFilter(raw);
  if (typeof clauses === 'string' || clauses.length === 0) return emptyAmountFilter;
  const value = (operator: 'eq' | 'gte' | 'lte') => clauses.find((clause) => clause.operator === operator)?.value ?? '';
  if (value('eq')) return { mode: 'exact', exact: value('eq'), min: '', max: '' };
  return { mode: 'range', exact: '', min: value('gte'), max: value('lte') };
}

export type AmountProblems = { exact?: string; min?: string; max?: string };

export function amountProblems(amount: AmountFilter): AmountProblems {
  const problems: AmountProblems = {};
  const check = (value: string) => (value.trim() === '' || amountPattern.test(value.trim()) ? undefined : 'Only decimal input is allowed');
  if (amount.mode === 'exact') {
    const exact = check(amount.exact);
    if (exact) problems.exact = exact;
    return problems;
  }
  const min = check(amount.min);
  const max = check(amount.max);
  if (min) problems.min = min;
  if (max) problems.max = max;
  if (!min && !max && amount.min.trim() && amount.max.trim() && Number(amount.min) > Number(amount.max)) {
    problems.max = `Maximum amount should be above ${amount.min.trim()}`;
  }
  return problems;
}
