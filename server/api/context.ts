// Context selection calls (being built for issue 4).
import { Hono } from 'hono';
import type { AppEnv, Deps } from './env.ts';

export function contextRoutes(_deps: Deps) {
  return new Hono<AppEnv>();
}
