import type { Readable } from 'node:stream';
import type { FileInfo } from './file-info';

/** File infos (one document per file). Adapters: memory, SQLite, MongoDB, under one contract suite. */
export interface FileInfoRepository {
  insert(info: FileInfo): Promise<void>;
  findById(id: string): Promise<FileInfo | undefined>;
  /**
   * Attaches the listed files to a post, in one conditional write per file: only a file that exists, is
   * not deleted, has no post yet, was uploaded by `userId` and in `channelId`. Returns the ids attached
   * (in the order given); a file lost to a concurrent attach is not among them.
   */
  attach(ids: readonly string[], postId: string, channelId: string, userId: string, at: number): Promise<string[]>;
  /**
   * The post's non-deleted files, oldest first (create_at, then id). With `among`: only those of these ids
   * (a read by id, for a post whose candidate files are known: the ones just attached).
   */
  listByPost(postId: string, among?: readonly string[]): Promise<FileInfo[]>;
  /** Soft-deletes the post's files (delete_at = at); returns how many. */
  deleteByPost(postId: string, at: number): Promise<number>;
  /**
   * Soft-deletes the listed files that `userId` uploaded and no post took (delete_at = at), one
   * conditional write each (an attach racing it wins or loses whole); returns the ids discarded.
   */
  discardUnattached(ids: readonly string[], userId: string, at: number): Promise<string[]>;
}

/** Bytes received but not stored yet: a local file (images are decoded from it), under no key. */
export interface StagedFile {
  readonly path: string;
  readonly size: number;
}

/** Bytes `start` to `end` of an object, both included. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** An object opened for reading: its bytes (all, or the range asked) as a stream, and its whole size. */
export interface OpenedObject {
  readonly stream: Readable;
  readonly size: number;
}

/**
 * Where file bytes live (a directory, an S3 bucket). Keys are relative paths with `/` separators. An upload
 * is written in two steps (ADR 0029): `stage` streams it to a local file with a cap (memory stays bounded
 * whatever the size), `commit` makes that file the object under its key (rename, or a PutObject of known
 * length), `discard` drops it. `write` is both at once.
 */
export interface FileStore {
  /** Streams `data` to a staged file, refusing more than `maxBytes` (FileTooLargeError, nothing left behind). */
  stage(data: Readable | Buffer, maxBytes?: number): Promise<StagedFile>;
  /** The staged file becomes the object under `key`, whole or not at all; the staged file is consumed. */
  commit(staged: StagedFile, key: string): Promise<void>;
  /** Drops a staged file that will not be committed. */
  discard(staged: StagedFile): Promise<void>;
  /**
   * Writes the stream under `key`, refusing more than `maxBytes` (FileTooLargeError, nothing left visible).
   * The object appears whole or not at all. Returns the bytes written.
   */
  write(key: string, data: Readable | Buffer, maxBytes?: number): Promise<number>;
  /** The bytes, or undefined when there is no such object. */
  read(key: string): Promise<Buffer | undefined>;
  /**
   * The object's bytes as a stream (downloads: never held whole), only `range` when given (within the
   * object: the caller took it from `size`), with the object's whole size; undefined when absent. The
   * caller reads the stream to its end or destroys it.
   */
  open(key: string, range?: ByteRange): Promise<OpenedObject | undefined>;
  /** The object's size in bytes, or undefined when absent. */
  size(key: string): Promise<number | undefined>;
  exists(key: string): Promise<boolean>;
  /** Removes the object (no error when absent). */
  remove(key: string): Promise<void>;
  /** Checks the store is usable (the bucket exists, the directory is writable): throws with a clear message. */
  check(): Promise<void>;
}

/** Thrown by FileStore.write when the stream is over its limit. */
export class FileTooLargeError extends Error {
  public constructor(public readonly limit: number) {
    super(`file is over ${limit} bytes`);
    this.name = 'FileTooLargeError';
  }
}

export const isFileTooLarge = (error: unknown): error is FileTooLargeError => error instanceof FileTooLargeError;

/** What image processing made of an upload. */
export interface ProcessedImage {
  readonly width: number;
  readonly height: number;
  /** JPEG (or PNG for PNG sources); absent for SVG. */
  readonly thumbnail?: Buffer;
  readonly preview?: Buffer;
  readonly miniPreview?: Buffer;
  readonly hasPreviewImage: boolean;
}

export type ImageOutcome = { readonly ok: true; readonly image: ProcessedImage } | { readonly ok: false; readonly reason: 'not_image' | 'too_large' | 'corrupt'; readonly detail: string };

/** Thumbnails and previews (sharp, on libuv's thread pool). */
export interface ImageProcessor {
  /** The most pixels an image may have. */
  readonly maxPixels: number;
  /** `input`: the bytes, or the path of a file holding them (a staged upload). */
  process(input: Buffer | string, extension: string): Promise<ImageOutcome>;
}
