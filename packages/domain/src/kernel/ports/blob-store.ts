// Port: binary objects of every service (form assets, respondent uploads, shared files). Small
// objects are written and read whole; large ones are streamed in (never whole in memory, refused
// past a size while they arrive) and out (whole or a byte range). Downloads of form files are
// short-lived signed URLs.
import { type Effect, Context, Data, type Option, type Stream } from "effect"
import type { StorageError } from "../errors.js"

/** A streamed write went past its `maxBytes`: it was stopped there and nothing was stored. */
export class BlobTooLarge extends Data.TaggedError("BlobTooLarge")<{ readonly maxBytes: number }> {}

/** Bytes `start` to `end` of an object, both inclusive (as in an HTTP Range). */
export interface BlobRange {
  readonly start: number
  readonly end: number
}

export interface BlobStreamOptions {
  readonly contentType: string
  /** The most bytes the object may have; one more stops the write with BlobTooLarge. */
  readonly maxBytes: number
}

export interface BlobReadStream {
  /** The whole object's size, whatever the range. */
  readonly size: number
  readonly contentType: string
  /** The bytes asked for: the whole object, or the range clamped to its end. */
  readonly body: Stream.Stream<Uint8Array, StorageError>
}

export interface BlobObject {
  readonly bytes: Uint8Array
  readonly contentType: string
}

export interface BlobMetadata {
  readonly size: number
  readonly contentType: string
}

/** One object as a listing names it: enough to tell an old orphan from a write in flight. */
export interface BlobListing {
  readonly key: string
  readonly size: number
  /** When the object was last written (for S3: its LastModified; for files: the file's mtime). */
  readonly lastModified: Date
}

export interface SignedUrlOptions {
  /** Seconds until the URL stops working. */
  readonly expiresInSeconds: number
  /** Suggested download file name (Content-Disposition). */
  readonly filename?: string | undefined
}

/** Object keys: relative, slash-separated, no `..` segments; checked by every adapter. */
export const isValidBlobKey = (key: string): boolean =>
  key.length > 0 &&
  key.length <= 1024 &&
  /^[A-Za-z0-9/._-]+$/.test(key) &&
  !key.startsWith("/") &&
  key.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..")

/** A key prefix naming a folder of objects: a valid key followed by `/`. */
export const isValidBlobPrefix = (prefix: string): boolean =>
  prefix.endsWith("/") && isValidBlobKey(prefix.slice(0, -1))

export interface BlobStoreService {
  readonly put: (key: string, object: BlobObject) => Effect.Effect<void, StorageError>
  /**
   * Writes `body` as it arrives, holding at most a bounded buffer, and answers the size stored. The
   * object appears only once the whole body is in: a body that fails, is interrupted or passes
   * `maxBytes` leaves the key as it was (absent, or its earlier object).
   */
  readonly putStream: <E>(
    key: string,
    body: Stream.Stream<Uint8Array, E>,
    options: BlobStreamOptions
  ) => Effect.Effect<{ readonly size: number }, E | BlobTooLarge | StorageError>
  /**
   * The object's bytes as a stream, all of them or `range` (which must start within the object; its
   * end is clamped to the last byte); none when there is no object.
   */
  readonly openRead: (
    key: string,
    range?: BlobRange
  ) => Effect.Effect<Option.Option<BlobReadStream>, StorageError>
  readonly get: (key: string) => Effect.Effect<Option.Option<BlobObject>, StorageError>
  readonly head: (key: string) => Effect.Effect<Option.Option<BlobMetadata>, StorageError>
  readonly delete: (key: string) => Effect.Effect<void, StorageError>
  /**
   * Puts the object at `from` at `to` (replacing what was there) and removes `from`; false when
   * there is nothing at `from`. Server-side: no byte passes through this process.
   */
  readonly move: (from: string, to: string) => Effect.Effect<boolean, StorageError>
  /** Deletes every object whose key starts with `prefix` (a folder: `a/b/`); none there is fine. */
  readonly deletePrefix: (prefix: string) => Effect.Effect<void, StorageError>
  /**
   * Every object (under `prefix`, a folder `a/b/`, when given), a page at a time: never the whole
   * store in memory. In no promised order; an object written or deleted while the listing runs may
   * or may not be in it.
   */
  readonly list: (prefix?: string) => Stream.Stream<BlobListing, StorageError>
  /** An absolute URL that serves the object's bytes until it expires. */
  readonly signedUrl: (key: string, options: SignedUrlOptions) => Effect.Effect<string, StorageError>
}

export class BlobStore extends Context.Service<BlobStore, BlobStoreService>()("@folio/domain/BlobStore") {}
