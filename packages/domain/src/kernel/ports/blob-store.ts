// Port: binary objects of every service (form assets and respondent uploads today). Downloads are
// short-lived signed URLs.
import { type Effect, Context, type Option } from "effect"
import type { StorageError } from "../errors.js"

export interface BlobObject {
  readonly bytes: Uint8Array
  readonly contentType: string
}

export interface BlobMetadata {
  readonly size: number
  readonly contentType: string
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

export interface BlobStoreService {
  readonly put: (key: string, object: BlobObject) => Effect.Effect<void, StorageError>
  readonly get: (key: string) => Effect.Effect<Option.Option<BlobObject>, StorageError>
  readonly head: (key: string) => Effect.Effect<Option.Option<BlobMetadata>, StorageError>
  readonly delete: (key: string) => Effect.Effect<void, StorageError>
  /** An absolute URL that serves the object's bytes until it expires. */
  readonly signedUrl: (key: string, options: SignedUrlOptions) => Effect.Effect<string, StorageError>
}

export class BlobStore extends Context.Service<BlobStore, BlobStoreService>()("@folio/domain/BlobStore") {}
