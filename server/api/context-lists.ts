// Every list declared once under the spec's {context} (server/http/context-list.ts): the router mounts their calls
// (server/app.ts) and the OpenAPI table describes them (openapi-routes.ts) from this one list. A new overview's list
// is its declaration beside its area's routes, and a line here.
import type { ContextList } from '../http/context-list.ts';
import { configurationList } from './configurations.ts';
import { customerList } from './customers.ts';

export const contextLists: readonly ContextList<unknown>[] = [customerList, configurationList];
