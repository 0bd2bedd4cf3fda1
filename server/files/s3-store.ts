// The FileStore in an S3-compatible bucket (S3_BUCKET set), through the official AWS SDK for JavaScript v3. The SDK
// reads its own standard variables (AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, or
// any other source of its credential chain); with an endpoint given (MinIO, Ceph, s3rver…) addressing is path-style.
//
// put     @aws-sdk/lib-storage's Upload: the stream is cut into 8 MiB parts, up to 4 in flight (so a put holds about
//         32 MiB however large the file); a body under one part is a single PutObject. S3 shows an object only once
//         its upload completes, so it appears whole or not at all; a stream that errors aborts the multipart upload.
// get     GetObject, its body streamed through; NoSuchKey → null.
// list    ListObjectsV2, page by page.
// delete  DeleteObject, and the key's unfinished multipart uploads aborted.
// removeIncomplete  multipart uploads initiated before the cut-off are aborted (a node died mid-upload). A bucket
//         lifecycle rule (AbortIncompleteMultipartUpload) does the same on the provider's side and is advisable too;
//         servers without ListMultipartUploads (s3rver) answer NotImplemented, counted as nothing to do.
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
  type ListMultipartUploadsCommandOutput,
  type MultipartUpload,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { finished, Readable, Transform } from 'node:stream';
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

export const s3PartSize = 8 * 1024 * 1024;
const partsInFlight = 4;

export type S3StoreOptions = {
  bucket: string;
  /** extra client settings (tests pass endpoint and credentials); production leaves them to the SDK's variables */
  clientConfig?: S3ClientConfig;
  env?: NodeJS.ProcessEnv;
};

/** Path-style addressing when an endpoint is configured: local and self-hosted stores rarely resolve bucket hosts. */
export function s3ClientConfig(options: S3StoreOptions): S3ClientConfig {
  const env = options.env ?? process.env;
  const endpoint = options.clientConfig?.endpoint ?? (env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined);
  return {
    forcePathStyle: endpoint !== undefined,
    // Checksums only where the operation requires them: S3-compatible servers other than AWS (s3rver among them) do
    // not all understand the SDK's default aws-chunked CRC trailers, and TLS already protects the bytes in transit.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...options.clientConfig,
  };
}

const encodeMetadata = (metadata: FileMetadata) => Object.fromEntries(Object.entries(metadata).map(([name, value]) => [name, encodeURIComponent(value)]));

function decodeMetadata(metadata: Record<string, string> | undefined): FileMetadata {
  return Object.fromEntries(
    Object.entries(metadata ?? {}).map(([name, value]) => {
      try {
        return [name, decodeURIComponent(value)];
      } catch {
        return [name, value];
      }
    }),
  );
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

export function createS3Store(options: S3StoreOptions): FileStore {
  const bucket = options.bucket;
  const client = new S3Client(s3ClientConfig(options));

  async function put(key: string, body: Readable, putOptions: PutOptions): Promise<{ size: number }> {
    assertFileKey(key);
    const metadata = putOptions.metadata ?? {};
    assertMetadata(metadata);
    let size = 0;
    // Counted on the way through (a 'data' listener on the body would set it flowing before the upload reads it).
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // An error of the caller's stream, or its destruction before the end, ends the upload's reading with it, and the
    // multipart upload is aborted.
    finished(body, (error) => {
      if (error) counted.destroy(error);
    });
    body.pipe(counted);
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: key, Body: counted, ContentType: putOptions.contentType || defaultContentType, Metadata: encodeMetadata(metadata) },
      partSize: s3PartSize,
      queueSize: partsInFlight,
    });
    try {
      await upload.done();
    } catch (error) {
      body.destroy();
      counted.destroy();
      throw body.errored ?? error;
    }
    return { size };
  }

  async function head(key: string): Promise<StoredFileInfo | null> {
    assertFileKey(key);
    try {
      const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return {
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? defaultContentType,
        metadata: decodeMetadata(answer.Metadata),
        lastModified: answer.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async function get(key: string): Promise<StoredFile | null> {
    assertFileKey(key);
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      // On Node the SDK's body is the HTTP response itself, a Readable.
      if (!(answer.Body instanceof Readable)) throw new Error(`S3 GetObject ${key}: the body is not a Node stream`);
      const stream = answer.Body;
      return {
        stream,
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? defaultContentType,
        metadata: decodeMetadata(answer.Metadata),
        lastModified: answer.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async function remove(key: string): Promise<void> {
    assertFileKey(key);
    // S3 answers a delete of a missing key with success: idempotent as the interface promises.
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    await abortUploads({ prefix: key, only: (upload) => upload.Key === key });
  }

  async function* pages(prefix: string): AsyncGenerator<ListedFile> {
    for await (const page of paginateListObjectsV2({ client, pageSize: 1000 }, { Bucket: bucket, Prefix: prefix })) {
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) };
      }
    }
  }

  function list(prefix: string): AsyncIterable<ListedFile> {
    // Checked now, not at the first iteration: a bad prefix is the caller's mistake, said where it is made.
    assertFilePrefix(prefix);
    return pages(prefix);
  }

  /** Aborts the multipart uploads under a prefix that pass the test; servers without the listing count none. */
  async function abortUploads(which: { prefix?: string; only: (upload: MultipartUpload) => boolean }): Promise<number> {
    let removed = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      let page: ListMultipartUploadsCommandOutput;
      try {
        page = await client.send(
          new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: which.prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
        );
      } catch (error) {
        if (error instanceof S3ServiceException && error.name === 'NotImplemented') return removed;
        throw error;
      }
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !which.only(upload)) continue;
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
        removed += 1;
      }
      if (!page.IsTruncated) return removed;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  async function removeIncomplete(olderThan: Date): Promise<number> {
    // Initiated, not last written: a live upload of a very large file is older than its start, so the cut-off is long.
    return abortUploads({ only: (upload) => upload.Initiated !== undefined && upload.Initiated < olderThan });
  }

  return { kind: 's3', put, get, head, delete: remove, list, removeIncomplete };
}
