// npm start: builds the browser app when its sources are newer than the build, then starts the server.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const sources = ['src', 'panes', 'commands', 'index.html', 'vite.config.ts', 'package-lock.json'];

function newest(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stats.mtimeMs);
}

const builtAt = existsSync(join(root, 'dist/index.html')) ? statSync(join(root, 'dist/index.html')).mtimeMs : 0;
const changedAt = Math.max(...sources.filter((name) => existsSync(join(root, name))).map((name) => newest(join(root, name))));
if (changedAt > builtAt || process.env.FORCE_BUILD === '1') {
  console.log('[portal] building the browser app…');
  const { buildPortal } = await import('./build-portal.ts');
  await buildPortal();
}
await import('../server/main.ts');
