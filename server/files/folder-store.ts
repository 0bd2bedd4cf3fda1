// The FileStore in a folder (the default: ${DATA_DIR}/files, one machine). An object is a plain file at its key, so an
// operator can open it; its content type and metadata sit beside it in a small JSON file under .meta/.
//
// root/reports/RPT…-1.csv            the object
// root/.meta/reports/RPT…-1.csv.json { contentType, metadata }
// root/.incoming/<key hash>.<random> a put in progress: written, fsynced, then renamed into place
//
// A put writes to .incoming and renames into place once the stream has ended and the bytes are on disk, so an object
// appears whole or not at all; a node that dies mid-put leaves only an .incoming file, which a delete of the key or
// removeIncomplete discards. The sidecar is renamed into place just before the object (a reader finding the object finds its sidecar).
// Key rules (file-store.ts) forbid '.', '..' and dot-names, so no key reaches outside the root or into .meta/.incoming.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, opendir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertFileKey,
  assertFilePrefix,
  assertMetadata,
  defaultContentType,
  type FileMetadata,
  type FileStore,
  type ListedFile,
  type PutOptions,
  type StoredFile,
  type StoredFileInfo,
} from './file-store.ts';

const metaFolder = '.meta';
const incomingFolder = '.incoming';

type Sidecar = { contentType: string; metadata: FileMetadata };

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
};

async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (!isMissing(error)) throw error;
  });
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename durable (the directory entry), where the platform allows a directory to be opened. */
async function syncFolder(path: string): Promise<void> {
  await syncFile(path).catch(() => undefined);
}

export function createFolderStore(rootDir: string): FileStore {
  const root = resolve(rootDir);
  const pathOf = (key: string) => {
    assertFileKey(key);
    const path = resolve(root, key);
    // The key rules already keep every key inside; this is the belt to their braces.
    if (!path.startsWith(`${root}${sep}`)) throw new Error(`file key ${key} leaves the store`);
    return path;
  };
  const sidecarOf = (key: string) => join(root, metaFolder, `${key}.json`);
  const incoming = join(root, incomingFolder);
  /** Unfinished puts of a key start with this (a hash: keys may be longer than a file name). */
  const incomingPrefixOf = (key: string) => `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.`;

  async function readSidecar(key: string): Promise<Sidecar> {
    try {
      const parsed = JSON.parse(await readFile(sidecarOf(key), 'utf8')) as Partial<Sidecar>;
      return { contentType: parsed.contentType ?? defaultContentType, metadata: parsed.metadata ?? {} };
    } catch {
      return { contentType: defaultContentType, metadata: {} };
    }
  }

  async function head(key: string): Promise<StoredFileInfo | null> {
    const path = pathOf(key);
    const info = await stat(path).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!info?.isFile()) return null;
    return { size: info.size, lastModified: info.mtime, ...(await readSidecar(key)) };
  }

  async function get(key: string): Promise<StoredFile | null> {
    const path = pathOf(key);
    // Opened first: a delete after this point does not cut the download short (the open file lives on).
    const handle = await open(path, 'r').catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!handle) return null;
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      const sidecar = await readSidecar(key);
      return { size: info.size, lastModified: info.mtime, ...sidecar, handle, stream: handle.createReadStream({ highWaterMark: 256 * 1024 }) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async function put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }> {
    const finalPath = pathOf(key);
    const metadata = options.metadata ?? {};
    assertMetadata(metadata);
    await mkdir(incoming, { recursive: true });
    const temporary = join(incoming, `${incomingPrefixOf(key)}${randomBytes(12).toString('hex')}`);
    const temporarySidecar = `${temporary}.json`;
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, counter, createWriteStream(temporary, { flags: 'wx', highWaterMark: 256 * 1024 }));
      await syncFile(temporary);
      await writeFile(temporarySidecar, JSON.stringify({ contentType: options.contentType || defaultContentType, metadata } satisfies Sidecar), { flag: 'wx' });
      await syncFile(temporarySidecar);
      const sidecar = sidecarOf(key);
      await mkdir(dirname(sidecar), { recursive: true });
      await mkdir(dirname(finalPath), { recursive: true });
      await rename(temporarySidecar, sidecar);
      await rename(temporary, finalPath);
      await syncFolder(dirname(finalPath));
      return { size };
    } catch (error) {
      body.destroy();
      await removeQuietly(temporary).catch(() => undefined);
      await removeQuietly(temporarySidecar).catch(() => undefined);
      throw error;
    }
  }

  async function remove(key: string): Promise<void> {
    await removeQuietly(pathOf(key));
    await removeQuietly(sidecarOf(key));
    // A put of this key still writing fails at its rename: whoever deletes a key means no version of it to stay.
    const prefix = incomingPrefixOf(key);
    const entries = await opendir(incoming).catch(() => null);
    if (!entries) return;
    for await (const entry of entries) {
      if (entry.name.startsWith(prefix)) await removeQuietly(join(incoming, entry.name));
    }
  }

  async function* walk(folder: string, prefix: string): AsyncGenerator<ListedFile> {
    const entries = await opendir(folder).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!entries) return;
    for await (const entry of entries) {
      // Dot-names are the store's own (.meta, .incoming); no key has one.
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      const key = relative(root, path).split(sep).join('/');
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* walk(path, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        const info = await stat(path).catch(() => null);
        if (info) yield { key, size: info.size, lastModified: info.mtime };
      }
    }
  }

  function list(prefix: string): AsyncIterable<ListedFile> {
    assertFilePrefix(prefix);
    // Start from the deepest folder the prefix names whole ('reports/RPT1' → reports/).
    const folder = prefix.includes('/') ? join(root, prefix.slice(0, prefix.lastIndexOf('/'))) : root;
    return walk(folder, prefix);
  }

  async function removeIncomplete(olderThan: Date): Promise<number> {
    let removed = 0;
    const entries = await opendir(incoming).catch(() => null);
    if (!entries) return 0;
    for await (const entry of entries) {
      const path = join(incoming, entry.name);
      // A live put keeps writing, so its modification time stays recent however long it runs.
      const info = await stat(path).catch(() => null);
      if (info && info.mtime < olderThan) {
        await removeQuietly(path);
        removed += 1;
      }
    }
    return removed;
  }

  return { kind: 'folder', put, get, head, delete: remove, list, removeIncomplete };
}
