// Writes .br and .gz beside every built text asset so the server sends precompressed files.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export function compressDist(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      compressDist(path);
      continue;
    }
    if (!/\.(js|css|html|svg|json|txt|map)$/.test(name)) continue;
    const content = readFileSync(path);
    writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  }
}

if (import.meta.main) compressDist(new URL('../dist', import.meta.url).pathname);
