// The FileStore: where every file the portal keeps lives (report files, attachments, images, statements), behind one
// small interface with two back ends: a folder under DATA_DIR (folder-store.ts) and any S3-compatible object store
// (s3-store.ts); open-file-store.ts chooses by configuration.
//
// | call                                      | answer                                                            |
// |-------------------------------------------|-------------------------------------------------------------------|
// | put(key, stream, { contentType, meta })   | { size } once the object is stored whole; replaces an object of   |
// |                                           | the key; a stream that errors stores nothing and rejects          |
// | get(key)                                  | { stream, size, contentType, metadata, lastModified } or null     |
// | head(key)                                 | the same without the stream, or null                              |
// | delete(key)                               | removes it and what unfinished puts of the key left (a folder's   |
// |                                           | temporary file, an S3 multipart upload), so a new attempt clears  |
// |                                           | what a dead one left; a missing key is no error (idempotent)      |
// | list(prefix)                              | async iterable of { key, size, lastModified }, order unspecified  |
// | removeIncomplete(olderThan)               | puts that never finished (a node died mid-upload) untouched since |
// |                                           | olderThan are discarded; returns how many                         |
//
// Keys are opaque to the store ('reports/RPT…-1.csv'): segments of [A-Za-z0-9._-] joined by '/', none empty, none
// starting with '.', at most 512 characters. The same rules hold on both back ends so a key that works on one works
// on the other, and none can leave the folder store's root. Metadata keys are [a-z0-9-] (S3 lowercases them);
// values are any text (stored percent-encoded where S3 needs ASCII), at most 2 KB together.
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';

export type FileMetadata = Record<string, string>;

export type PutOptions = { contentType: string; metadata?: FileMetadata };

export type StoredFileInfo = { size: number; contentType: string; metadata: FileMetadata; lastModified: Date };

/**
 * A kept file, to read as a stream; one on this node's disk also gives its open handle (read by position: downloads
 * reuse their buffers, server/http/file-body.ts). Whoever takes it destroys the stream at the end, which closes both.
 */
export type StoredFile = StoredFileInfo & { stream: Readable; handle?: FileHandle };

export type ListedFile = { key: string; size: number; lastModified: Date };

export type FileStoreKind = 'folder' | 's3';

export type FileStore = {
  readonly kind: FileStoreKind;
  put: (key: string, body: Readable, options: PutOptions) => Promise<{ size: number }>;
  get: (key: string) => Promise<StoredFile | null>;
  head: (key: string) => Promise<StoredFileInfo | null>;
  delete: (key: string) => Promise<void>;
  list: (prefix: string) => AsyncIterable<ListedFile>;
  removeIncomplete: (olderThan: Date) => Promise<number>;
};

export class InvalidFileKey extends Error {
  constructor(key: string, why: string) {
    super(`invalid file key ${JSON.stringify(key.slice(0, 80))}: ${why}`);
    this.name = 'InvalidFileKey';
  }
}

const maxKeyLength = 512;
const segmentPattern = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Throws InvalidFileKey unless the key follows the rules above. */
export function assertFileKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidFileKey(String(key), 'empty');
  if (key.length > maxKeyLength) throw new InvalidFileKey(key, `longer than ${maxKeyLength} characters`);
  for (const segment of key.split('/')) {
    if (!segmentPattern.test(segment))
      throw new InvalidFileKey(key, `segment ${JSON.stringify(segment)} is empty, starts with a dot or holds other characters than A-Z a-z 0-9 . _ -`);
  }
}

/** A list prefix: a key, a key's start ('reports/RPT1') or '' for everything; the same characters as keys. */
export function assertFilePrefix(prefix: string): void {
  if (prefix === '') return;
  // 'reports/' lists a folder: check it as if a name followed.
  assertFileKey(prefix.endsWith('/') ? `${prefix}x` : prefix);
}

const metadataKeyPattern = /^[a-z0-9][a-z0-9-]*$/;
const maxMetadataBytes = 2048;

export function assertMetadata(metadata: FileMetadata): void {
  let bytes = 0;
  for (const [name, value] of Object.entries(metadata)) {
    if (!metadataKeyPattern.test(name)) throw new Error(`invalid metadata name ${JSON.stringify(name)}: [a-z0-9-] only`);
    if (typeof value !== 'string') throw new Error(`metadata ${name} must be text`);
    bytes += name.length + Buffer.byteLength(encodeURIComponent(value));
  }
  if (bytes > maxMetadataBytes) throw new Error(`metadata of ${bytes} bytes; at most ${maxMetadataBytes}`);
}

export const defaultContentType = 'application/octet-stream';
