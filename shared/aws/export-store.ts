import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, type WriteStream } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { DescribeContinuousBackupsCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { settings } from '../config/env.js';

/**
 * Where farm exports live: the S3 bucket `EXPORT_BUCKET` in AWS (multipart upload of 8 MB parts, so an
 * export never sits whole in memory; downloads through a pre-signed URL), else a folder of this machine
 * (`EXPORT_DIR/<table>/<key>`, default `.data/exports`), which the local download route streams.
 */
const PART_BYTES = 8 * 1024 * 1024;
/** A pre-signed download stays valid this long. */
export const DOWNLOAD_URL_SECONDS = 900;

let s3Client: S3Client | undefined;
const s3 = () => (s3Client ??= new S3Client({ region: settings().region }));

export const exportsInS3 = (): boolean => settings().exportBucket !== undefined;
const localPath = (key: string) => resolve(settings().exportDir, settings().tableName, key);

export interface ExportSink {
  write(text: string): Promise<void>;
  /** Finishes the file; the bytes written. */
  close(): Promise<number>;
  /** Drops what was written (a failed export leaves no file). */
  abort(): Promise<void>;
}

function localSink(key: string): ExportSink {
  const path = localPath(key);
  mkdirSync(dirname(path), { recursive: true });
  const out: WriteStream = createWriteStream(path, { encoding: 'utf8' });
  let bytes = 0;
  return {
    write: (text) =>
      new Promise((ok, fail) => {
        bytes += Buffer.byteLength(text);
        if (out.write(text)) return ok();
        const onError = (err: Error) => {
          out.off('drain', onDrain);
          fail(err);
        };
        const onDrain = () => {
          out.off('error', onError);
          ok();
        };
        out.once('drain', onDrain).once('error', onError);
      }),
    close: () => new Promise((ok, fail) => out.end((err?: Error | null) => (err ? fail(err) : ok(bytes)))),
    abort: async () => {
      out.destroy();
      rmSync(path, { force: true });
    },
  };
}

function s3Sink(key: string): ExportSink {
  const Bucket = settings().exportBucket!;
  let uploadId: string | undefined;
  let buffer: Buffer[] = [];
  let buffered = 0;
  let bytes = 0;
  const parts: Array<{ ETag: string | undefined; PartNumber: number }> = [];
  const flush = async () => {
    if (buffered === 0) return;
    uploadId ??= (await s3().send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: 'application/x-ndjson' }))).UploadId;
    const PartNumber = parts.length + 1;
    const body = Buffer.concat(buffer);
    buffer = [];
    buffered = 0;
    const res = await s3().send(new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber, Body: body }));
    parts.push({ ETag: res.ETag, PartNumber });
  };
  return {
    write: async (text) => {
      const chunk = Buffer.from(text, 'utf8');
      buffer.push(chunk);
      buffered += chunk.length;
      bytes += chunk.length;
      if (buffered >= PART_BYTES) await flush();
    },
    close: async () => {
      await flush();
      await s3().send(new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      return bytes;
    },
    abort: async () => {
      if (uploadId) await s3().send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }));
    },
  };
}

export const openExportSink = (key: string): ExportSink => (exportsInS3() ? s3Sink(key) : localSink(key));

/** The file's lines, read as a stream (never whole). */
export async function* exportLines(key: string): AsyncGenerator<string> {
  let input: Readable;
  if (exportsInS3()) {
    const res = await s3().send(new GetObjectCommand({ Bucket: settings().exportBucket!, Key: key }));
    input = res.Body as Readable;
  } else {
    input = createReadStream(localPath(key), { encoding: 'utf8' });
  }
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) yield line;
  } finally {
    lines.close();
    input.destroy();
  }
}

/** A pre-signed GET of the file (S3), or undefined when exports are local files. */
export async function downloadUrlOf(key: string, filename: string): Promise<string | undefined> {
  if (!exportsInS3()) return undefined;
  const command = new GetObjectCommand({
    Bucket: settings().exportBucket!,
    Key: key,
    ResponseContentDisposition: `attachment; filename="${filename}"`,
  });
  return getSignedUrl(s3(), command, { expiresIn: DOWNLOAD_URL_SECONDS });
}

/** A local export file's content (the offline download route), or undefined when it is gone. */
export function readLocalExport(key: string): string | undefined {
  const path = localPath(key);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

export const localExportPath = (key: string): string => join(settings().exportDir, settings().tableName, key);

export interface BackupState {
  available: boolean;
  pointInTimeRecovery: 'ENABLED' | 'DISABLED' | 'unknown';
  earliestRestorableDateTime: string | null;
  latestRestorableDateTime: string | null;
  recoveryPeriodInDays: number | null;
  note: string | null;
}

/** The table's point-in-time recovery (DescribeContinuousBackups); DynamoDB Local has none. */
export async function continuousBackups(): Promise<BackupState> {
  const { dynamodbEndpoint, region, tableName } = settings();
  if (dynamodbEndpoint) {
    return {
      available: false,
      pointInTimeRecovery: 'unknown',
      earliestRestorableDateTime: null,
      latestRestorableDateTime: null,
      recoveryPeriodInDays: null,
      note: 'not available locally (DynamoDB Local has no point-in-time recovery)',
    };
  }
  const client = new DynamoDBClient({ region });
  try {
    const res = await client.send(new DescribeContinuousBackupsCommand({ TableName: tableName }));
    const pitr = res.ContinuousBackupsDescription?.PointInTimeRecoveryDescription;
    return {
      available: true,
      pointInTimeRecovery: pitr?.PointInTimeRecoveryStatus === 'ENABLED' ? 'ENABLED' : 'DISABLED',
      earliestRestorableDateTime: pitr?.EarliestRestorableDateTime?.toISOString() ?? null,
      latestRestorableDateTime: pitr?.LatestRestorableDateTime?.toISOString() ?? null,
      recoveryPeriodInDays: pitr?.RecoveryPeriodInDays ?? null,
      note: null,
    };
  } finally {
    client.destroy();
  }
}
