// The browser app as npm start serves it: built by Vite into dist/ and precompressed (an uncompressed build would be
// sent uncompressed, and measure slower than what users get).
import { join, resolve } from 'node:path';
import { compressDist } from './compress-dist.ts';

const root = resolve(import.meta.dirname, '..');
let built: Promise<void> | null = null;

/** Builds dist/ from the current sources and precompresses it, once per process (the bench's sections share it). */
export function buildPortal(): Promise<void> {
  built ??= (async () => {
    const { build } = await import('vite');
    await build({ root, logLevel: 'warn' });
    compressDist(join(root, 'dist'));
  })();
  return built;
}
