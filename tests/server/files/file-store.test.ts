// The FileStore contract, one suite run against both back ends: the folder and S3 (s3rver, started here in-process).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemNow } from '../../../server/clock.ts';
import { InvalidFileKey, type FileStore } from '../../../server/files/file-store.ts';
import { createFolderStore } from '../../../server/files/folder-store.ts';
import { openFileStore } from '../../../server/files/open-file-store.ts';
import { createS3Store } from '../../../server/files/s3-store.ts';
import { startS3TestServer, type S3TestServer } from './s3-test-server.ts';

type Backend = { name: 'folder' | 's3'; open: () => Promise<{ store: FileStore; close: () => Promise<void> }> };

/** A store over s3rver, configured explicitly (a server process reads the same from its environment). */
function s3StoreOf(server: S3TestServer): FileStore {
  return createS3Store({
    bucket: server.bucket,
    clientConfig: {
      endpoint: server.endpoint,
      region: server.env.AWS_REGION,
      credentials: { accessKeyId: server.env.AWS_ACCESS_KEY_ID, secretAccessKey: server.env.AWS_SECRET_ACCESS_KEY },
    },
  });
}

const backends: Backend[] = [
  { name: 'folder', open: async () => ({ store: createFolderStore(mkdtempSync(join(tmpdir(), 'portal-files-'))), close: async () => undefined }) },
  {
    name: 's3',
    open: async () => {
      const server = await startS3TestServer();
      return { store: s3StoreOf(server), close: server.close };
    },
  },
];

const streamOf = (text: string | Buffer) => Readable.from([Buffer.from(text)]);

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** size bytes of a repeatable pseudo-random sequence, made as they are read (never whole in memory). */
function generated(size: number, seed: string, failAfter?: number): Readable {
  let produced = 0;
  let block = createHash('sha256').update(seed).digest();
  return new Readable({
    read() {
      if (failAfter !== undefined && produced >= failAfter) {
        this.destroy(new Error('the source broke'));
        return;
      }
      if (produced >= size) {
        this.push(null);
        return;
      }
      const chunk = Buffer.alloc(Math.min(64 * 1024, size - produced));
      for (let offset = 0; offset < chunk.length; offset += 32) {
        block = createHash('sha256').update(block).digest();
        block.copy(chunk, offset);
      }
      produced += chunk.length;
      this.push(chunk);
    },
  });
}

async function digestOf(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

async function keysOf(store: FileStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of store.list(prefix)) keys.push(file.key);
  return keys.sort();
}

describe.each(backends)('the FileStore contract on the $name back end', (backend) => {
  let store: FileStore;
  let close: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    ({ store, close } = await backend.open());
  });
  afterAll(async () => close());

  it('stores a file with its content type and metadata, and gives them back', async () => {
    const text = '\uFEFFReference,Amount\r\nTX1,12.50\r\n';
    // Stamped by the clock of the file system (or S3 server), which TEST_CLOCK does not move.
    const before = systemNow().getTime();
    const { size } = await store.put('reports/RPT1-1.csv', streamOf(text), {
      contentType: 'text/csv; charset=utf-8',
      metadata: { 'report-id': 'RPT1', 'file-name': 'Relevé d’août.csv', odd: '100% "quoted"; yes' },
    });
    expect(size).toBe(Buffer.byteLength(text));
    const file = await store.get('reports/RPT1-1.csv');
    expect(file).not.toBeNull();
    expect({ size: file!.size, contentType: file!.contentType, metadata: file!.metadata }).toEqual({
      size,
      contentType: 'text/csv; charset=utf-8',
      metadata: { 'report-id': 'RPT1', 'file-name': 'Relevé d’août.csv', odd: '100% "quoted"; yes' },
    });
    expect((await bytesOf(file!.stream)).toString('utf8')).toBe(text);
    const head = await store.head('reports/RPT1-1.csv');
    expect(head).toMatchObject({ size, contentType: 'text/csv; charset=utf-8', metadata: { 'report-id': 'RPT1' } });
    expect(head!.lastModified.getTime()).toBeGreaterThan(before - 5_000);
  });

  it('replaces a file put again under the same key', async () => {
    await store.put('replace/a.txt', streamOf('first version'), { contentType: 'text/plain' });
    await store.put('replace/a.txt', streamOf('second'), { contentType: 'application/json', metadata: { v: '2' } });
    const file = await store.get('replace/a.txt');
    expect(await bytesOf(file!.stream)).toEqual(Buffer.from('second'));
    expect(file).toMatchObject({ size: 6, contentType: 'application/json', metadata: { v: '2' } });
  });

  it('stores an empty file', async () => {
    expect(await store.put('empty/nothing.bin', Readable.from([]), { contentType: 'application/octet-stream' })).toEqual({ size: 0 });
    const file = await store.get('empty/nothing.bin');
    expect(file?.size).toBe(0);
    expect(await bytesOf(file!.stream)).toHaveLength(0);
  });

  it('answers null for a missing key and deletes idempotently', async () => {
    expect(await store.get('missing/never.csv')).toBeNull();
    expect(await store.head('missing/never.csv')).toBeNull();
    await store.delete('missing/never.csv');
    await store.put('gone/soon.txt', streamOf('x'), { contentType: 'text/plain' });
    await store.delete('gone/soon.txt');
    await store.delete('gone/soon.txt');
    expect(await store.get('gone/soon.txt')).toBeNull();
    expect(await store.head('gone/soon.txt')).toBeNull();
    expect(await keysOf(store, 'gone/')).toEqual([]);
  });

  it('lists by prefix, with sizes and times', async () => {
    for (const key of ['list/RPT10-1.csv', 'list/RPT11-1.xlsx', 'list/RPT2-1.csv', 'list/deeper/x.pdf', 'listing/other.csv']) {
      await store.put(key, streamOf(key), { contentType: 'text/plain' });
    }
    expect(await keysOf(store, 'list/')).toEqual(['list/RPT10-1.csv', 'list/RPT11-1.xlsx', 'list/RPT2-1.csv', 'list/deeper/x.pdf']);
    expect(await keysOf(store, 'list/RPT1')).toEqual(['list/RPT10-1.csv', 'list/RPT11-1.xlsx']);
    expect(await keysOf(store, 'list')).toEqual(['list/RPT10-1.csv', 'list/RPT11-1.xlsx', 'list/RPT2-1.csv', 'list/deeper/x.pdf', 'listing/other.csv']);
    expect(await keysOf(store, 'nothing-here/')).toEqual([]);
    const listed: { key: string; size: number; lastModified: Date }[] = [];
    for await (const file of store.list('list/RPT2')) listed.push(file);
    expect(listed).toEqual([{ key: 'list/RPT2-1.csv', size: 'list/RPT2-1.csv'.length, lastModified: expect.any(Date) }]);
    expect(await keysOf(store, '')).toEqual(expect.arrayContaining(['list/RPT2-1.csv', 'listing/other.csv', 'reports/RPT1-1.csv']));
  });

  it('streams a 20 MB file in and out byte for byte (multipart on S3)', async () => {
    const size = 20 * 1024 * 1024 + 12_345;
    const expected = await digestOf(generated(size, 'large'));
    const { size: stored } = await store.put('large/file.bin', generated(size, 'large'), { contentType: 'application/octet-stream' });
    expect(stored).toBe(size);
    const file = await store.get('large/file.bin');
    expect(file?.size).toBe(size);
    expect(await digestOf(file!.stream)).toEqual(expected);
  });

  it('stores nothing when the stream breaks midway, even past the first part', async () => {
    for (const [key, failAfter] of [
      ['broken/small.bin', 100_000],
      ['broken/large.bin', 12 * 1024 * 1024],
    ] as const) {
      await expect(store.put(key, generated(20 * 1024 * 1024, key, failAfter), { contentType: 'application/octet-stream' })).rejects.toThrow(
        'the source broke',
      );
      expect(await store.head(key)).toBeNull();
    }
    expect(await keysOf(store, 'broken/')).toEqual([]);
  });

  it.each([
    '',
    '../escape.txt',
    'reports/../../escape.txt',
    '/etc/passwd',
    'reports//double.csv',
    'reports/',
    '.meta/reports/RPT1-1.csv.json',
    '.incoming/x',
    'reports/./RPT1-1.csv',
    'a\\b',
    'nul\u0000.csv',
    'space name.csv',
    'relevé.csv',
    'x'.repeat(513),
  ])('refuses the key %j on every call', async (key) => {
    await expect(store.put(key, streamOf('escape'), { contentType: 'text/plain' })).rejects.toBeInstanceOf(InvalidFileKey);
    await expect(store.get(key)).rejects.toBeInstanceOf(InvalidFileKey);
    await expect(store.head(key)).rejects.toBeInstanceOf(InvalidFileKey);
    await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidFileKey);
  });

  it('refuses a prefix that could escape, and metadata names S3 would not keep', async () => {
    expect(() => store.list('../')).toThrow(InvalidFileKey);
    await expect(store.put('meta/bad.txt', streamOf('x'), { contentType: 'text/plain', metadata: { Upper_Case: 'x' } })).rejects.toThrow(
      'invalid metadata name',
    );
  });
});

describe('the folder back end on disk', () => {
  it('keeps objects as plain files inside its root, and leaves nothing outside it', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'portal-files-parent-'));
    const root = join(parent, 'files');
    const store = createFolderStore(root);
    await store.put('reports/RPT9-1.csv', streamOf('plain'), { contentType: 'text/csv' });
    await expect(store.put('../outside.txt', streamOf('x'), { contentType: 'text/plain' })).rejects.toThrow(InvalidFileKey);
    expect(readdirSync(parent)).toEqual(['files']);
    expect(readdirSync(join(root, 'reports'))).toEqual(['RPT9-1.csv']);
    expect(readdirSync(join(root, '.incoming'))).toEqual([]);
  });

  it('discards what an unfinished put of a key left when the key is deleted, and that put then stores nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'portal-files-'));
    const store = createFolderStore(root);
    const body = new PassThrough();
    const put = store.put('reports/RPT5-1.csv', body, { contentType: 'text/csv' });
    put.catch(() => undefined);
    body.write('half a file');
    for (let i = 0; i < 100 && !(existsSync(join(root, '.incoming')) && readdirSync(join(root, '.incoming')).length > 0); i += 1)
      await new Promise((done) => setTimeout(done, 10));
    expect(readdirSync(join(root, '.incoming'))).toHaveLength(1);
    await store.delete('reports/RPT5-1.csv');
    expect(readdirSync(join(root, '.incoming'))).toEqual([]);
    body.end('the rest');
    await expect(put).rejects.toThrow();
    expect(await store.head('reports/RPT5-1.csv')).toBeNull();
  });

  it('discards puts a dead node left half-written once they are older than the cut-off', async () => {
    const root = mkdtempSync(join(tmpdir(), 'portal-files-'));
    const store = createFolderStore(root);
    mkdirSync(join(root, '.incoming'), { recursive: true });
    writeFileSync(join(root, '.incoming', 'old'), 'half');
    writeFileSync(join(root, '.incoming', 'young'), 'half');
    const hourAgo = new Date(systemNow().getTime() - 3_600_000);
    utimesSync(join(root, '.incoming', 'old'), hourAgo, hourAgo);
    expect(await store.removeIncomplete(new Date(systemNow().getTime() - 600_000))).toBe(1);
    expect(existsSync(join(root, '.incoming', 'old'))).toBe(false);
    expect(existsSync(join(root, '.incoming', 'young'))).toBe(true);
    expect(await keysOf(store, '')).toEqual([]);
  });
});

describe('choosing the back end', () => {
  it('is the folder under DATA_DIR by default, S3 with S3_BUCKET', () => {
    expect(openFileStore({ dataDir: '/tmp/portal-x', s3Bucket: undefined }).kind).toBe('folder');
    expect(openFileStore({ dataDir: '/tmp/portal-x', s3Bucket: 'portal-files' }, { AWS_REGION: 'eu-west-2' }).kind).toBe('s3');
  });

  it('reads the SDK’s own variables: a store over s3rver configured by environment alone', async () => {
    const server = await startS3TestServer();
    const saved = { ...process.env };
    try {
      Object.assign(process.env, server.env);
      const store = openFileStore({ dataDir: '/tmp/unused', s3Bucket: server.env.S3_BUCKET });
      const key = `env/${randomBytes(4).toString('hex')}.txt`;
      await store.put(key, streamOf('through the environment'), { contentType: 'text/plain' });
      expect((await bytesOf((await store.get(key))!.stream)).toString()).toBe('through the environment');
    } finally {
      for (const name of Object.keys(server.env)) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
      await server.close();
    }
  });
});
