// S3 BlobStore: any S3-compatible server (path-style by default), the AWS SDK doing all request
// signing, downloads as presigned GET URLs.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand
} from "@aws-sdk/client-s3"
import { getSignedUrl } from "@aws-sdk/s3-request-presigner"
import { attachmentDisposition, type BlobListing, BlobStore, StorageError } from "@folio/domain"
import { Context, Effect, Layer, Option, Stream } from "effect"
import { BlobStoreHealth } from "../health.js"
import { checkKey, checkPrefix } from "./memory.js"
import { eachChunkWithin, spanOf } from "./streams.js"

/**
 * Bytes a streamed write gathers before sending them as one part of a multipart upload: S3's
 * smallest part, so a write holds about this much (plus the chunks that arrived together) in memory
 * whatever its size. A body that ends before the first part is full goes up as one plain PUT.
 */
export const S3_PART_BYTES = 5 * 1024 * 1024

export interface S3BlobStoreOptions {
  readonly endpoint: string
  readonly region: string
  readonly bucket: string
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly forcePathStyle?: boolean | undefined
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata.httpStatusCode === 404)

/** HeadBucket's answer in words: it has no body, so the SDK's own message is only "UnknownError". */
const bucketProblem = (error: unknown): unknown => {
  if (!(error instanceof S3ServiceException)) return error
  switch (error.$metadata.httpStatusCode) {
    case 404:
      return new Error("the bucket does not exist")
    case 301:
    case 400:
      return new Error(
        `the bucket is not reachable this way (HTTP ${error.$metadata.httpStatusCode}; region or addressing style?)`
      )
    case 403:
      return new Error("access denied (HTTP 403; check the access key and its permissions)")
    default:
      return error
  }
}

/** The client span attributes of an S3 call: the endpoint's host and port, the bucket. */
const s3Peer = (endpoint: string, bucket: string): Record<string, unknown> => {
  try {
    const url = new URL(endpoint)
    return {
      "rpc.system": "aws-api",
      "rpc.service": "S3",
      "server.address": url.hostname,
      ...(url.port === "" ? {} : { "server.port": Number(url.port) }),
      "aws.s3.bucket": bucket
    }
  } catch {
    return { "rpc.system": "aws-api", "rpc.service": "S3", "aws.s3.bucket": bucket }
  }
}

/**
 * The blob store and its health check. Building the layer checks the bucket (HeadBucket), so a
 * missing bucket or bad credentials stop start-up instead of failing every upload later.
 */
export const S3BlobStoreLive = (options: S3BlobStoreOptions) =>
  Layer.effectContext(
    Effect.gen(function* () {
      const client = yield* Effect.acquireRelease(
        Effect.sync(
          () =>
            new S3Client({
              endpoint: options.endpoint,
              region: options.region,
              forcePathStyle: options.forcePathStyle ?? true,
              credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            })
        ),
        (c) => Effect.sync(() => c.destroy())
      )
      const Bucket = options.bucket
      // Each call a client span (`S3 write blob`, …): the endpoint's host and the bucket; never a
      // key's content, a presigned URL or the credentials.
      const peer = s3Peer(options.endpoint, Bucket)
      const attempt = <A>(message: string, run: (signal: AbortSignal) => Promise<A>) =>
        Effect.tryPromise({ try: run, catch: (cause) => new StorageError({ message, cause }) }).pipe(
          Effect.withSpan(`S3 ${message.replace(/^cannot /, "")}`, { kind: "client", attributes: peer })
        )
      const orNone = <A>(message: string, run: (signal: AbortSignal) => Promise<A>) =>
        attempt(message, async (signal) => {
          try {
            return Option.some(await run(signal))
          } catch (error) {
            if (isNotFound(error)) return Option.none<A>()
            throw error
          }
        })

      const health = BlobStoreHealth.of({
        check: Effect.tryPromise({
          try: (abortSignal) => client.send(new HeadBucketCommand({ Bucket }), { abortSignal }),
          catch: (error) =>
            new StorageError({
              message: `cannot use S3 bucket "${Bucket}" at ${options.endpoint}`,
              cause: bucketProblem(error)
            })
        }).pipe(Effect.asVoid)
      })
      yield* health.check

      const store = BlobStore.of({
        put: (Key, object) =>
          Effect.andThen(
            checkKey(Key),
            attempt("cannot write blob", (abortSignal) =>
              client.send(
                new PutObjectCommand({ Bucket, Key, Body: object.bytes, ContentType: object.contentType }),
                { abortSignal }
              )
            )
          ),
        putStream: (Key, body, { contentType, maxBytes }) =>
          Effect.andThen(
            checkKey(Key),
            Effect.gen(function* () {
              let uploadId: string | undefined
              const parts: Array<{ ETag: string | undefined; PartNumber: number }> = []
              let pending: Array<Uint8Array> = []
              let pendingBytes = 0
              const take = () => {
                const bytes = Buffer.concat(pending, pendingBytes)
                pending = []
                pendingBytes = 0
                return bytes
              }
              const sendPart = Effect.gen(function* () {
                if (uploadId === undefined) {
                  const created = yield* attempt("cannot start blob upload", (abortSignal) =>
                    client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType: contentType }), {
                      abortSignal
                    })
                  )
                  uploadId = created.UploadId
                }
                const UploadId = uploadId
                const PartNumber = parts.length + 1
                const Body = take()
                const sent = yield* attempt("cannot write blob part", (abortSignal) =>
                  client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body }), {
                    abortSignal
                  })
                )
                parts.push({ ETag: sent.ETag, PartNumber })
              })
              const abort = Effect.suspend(() =>
                uploadId === undefined
                  ? Effect.void
                  : Effect.ignore(
                      attempt("cannot abort blob upload", (abortSignal) =>
                        client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId }), {
                          abortSignal
                        })
                      )
                    )
              )
              return yield* Effect.gen(function* () {
                const size = yield* eachChunkWithin(body, maxBytes, (chunks) =>
                  Effect.suspend(() => {
                    for (const chunk of chunks) {
                      pending.push(chunk)
                      pendingBytes += chunk.byteLength
                    }
                    return pendingBytes >= S3_PART_BYTES ? sendPart : Effect.void
                  })
                )
                if (uploadId === undefined) {
                  const Body = take()
                  yield* attempt("cannot write blob", (abortSignal) =>
                    client.send(new PutObjectCommand({ Bucket, Key, Body, ContentType: contentType }), {
                      abortSignal
                    })
                  )
                  return { size }
                }
                if (pendingBytes > 0) yield* sendPart
                const UploadId = uploadId
                yield* attempt("cannot finish blob upload", (abortSignal) =>
                  client.send(
                    new CompleteMultipartUploadCommand({
                      Bucket,
                      Key,
                      UploadId,
                      MultipartUpload: { Parts: parts }
                    }),
                    { abortSignal }
                  )
                )
                return { size }
              }).pipe(Effect.onError(() => abort))
            })
          ),
        openRead: (Key, range) =>
          Effect.andThen(
            checkKey(Key),
            orNone("cannot read blob", async (abortSignal) => {
              const head = await client.send(new HeadObjectCommand({ Bucket, Key }), { abortSignal })
              const size = head.ContentLength ?? 0
              const span = spanOf(size, range)
              // The object is fetched when the body is read, not before: an unread body holds nothing.
              const body: Stream.Stream<Uint8Array, StorageError> =
                span === undefined
                  ? Stream.empty
                  : Stream.unwrap(
                      Effect.map(
                        attempt("cannot read blob", (signal) =>
                          client.send(
                            new GetObjectCommand({ Bucket, Key, Range: `bytes=${span.start}-${span.end}` }),
                            { abortSignal: signal }
                          )
                        ),
                        (out) =>
                          Stream.fromAsyncIterable(
                            out.Body as AsyncIterable<Uint8Array>,
                            (cause) => new StorageError({ message: "cannot read blob", cause })
                          )
                      )
                    )
              return { size, contentType: head.ContentType ?? "application/octet-stream", body }
            })
          ),
        get: (Key) =>
          Effect.andThen(
            checkKey(Key),
            orNone("cannot read blob", async (abortSignal) => {
              const out = await client.send(new GetObjectCommand({ Bucket, Key }), { abortSignal })
              const bytes = (await out.Body?.transformToByteArray()) ?? new Uint8Array()
              return { bytes, contentType: out.ContentType ?? "application/octet-stream" }
            })
          ),
        head: (Key) =>
          Effect.andThen(
            checkKey(Key),
            orNone("cannot stat blob", async (abortSignal) => {
              const out = await client.send(new HeadObjectCommand({ Bucket, Key }), { abortSignal })
              return {
                size: out.ContentLength ?? 0,
                contentType: out.ContentType ?? "application/octet-stream"
              }
            })
          ),
        delete: (Key) =>
          Effect.andThen(
            checkKey(Key),
            attempt("cannot delete blob", (abortSignal) =>
              client.send(new DeleteObjectCommand({ Bucket, Key }), { abortSignal })
            ).pipe(Effect.asVoid)
          ),
        // S3 has no rename: a server-side copy, then the delete.
        move: (from, to) =>
          Effect.andThen(
            Effect.andThen(checkKey(from), checkKey(to)),
            attempt("cannot move blob", async (abortSignal) => {
              try {
                await client.send(
                  new CopyObjectCommand({ Bucket, Key: to, CopySource: `${Bucket}/${from}` }),
                  { abortSignal }
                )
              } catch (error) {
                if (
                  error instanceof S3ServiceException &&
                  (error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404)
                )
                  return false
                throw error
              }
              if (to !== from)
                await client.send(new DeleteObjectCommand({ Bucket, Key: from }), { abortSignal })
              return true
            })
          ),
        // Listed a page (up to 1,000 keys) at a time and deleted with one request per page.
        deletePrefix: (Prefix) =>
          Effect.andThen(
            checkPrefix(Prefix),
            attempt("cannot delete blobs", async (abortSignal) => {
              for (;;) {
                const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix }), { abortSignal })
                const keys = (page.Contents ?? []).flatMap((o) =>
                  o.Key === undefined ? [] : [{ Key: o.Key }]
                )
                if (keys.length === 0) return
                const deleted = await client.send(
                  new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }),
                  { abortSignal }
                )
                // A key the server would not delete is a failure, not a page to list again forever.
                if ((deleted.Errors ?? []).length > 0) throw new Error("some objects were not deleted")
                if (page.IsTruncated !== true) return
              }
            })
          ),
        // A page (up to 1,000 keys) per request, the next asked for only once this one is read.
        list: (prefix) =>
          Stream.unwrap(
            Effect.map(prefix === undefined ? Effect.void : checkPrefix(prefix), () =>
              Stream.paginate<string | undefined, BlobListing, StorageError>(undefined, (token) =>
                Effect.map(
                  attempt("cannot list blobs", (abortSignal) =>
                    client.send(
                      new ListObjectsV2Command({
                        Bucket,
                        ...(prefix === undefined ? {} : { Prefix: prefix }),
                        ...(token === undefined ? {} : { ContinuationToken: token })
                      }),
                      { abortSignal }
                    )
                  ),
                  (page) =>
                    [
                      (page.Contents ?? []).flatMap((o) =>
                        o.Key === undefined
                          ? []
                          : [{ key: o.Key, size: o.Size ?? 0, lastModified: o.LastModified ?? new Date(0) }]
                      ),
                      page.IsTruncated === true && page.NextContinuationToken !== undefined
                        ? Option.some(page.NextContinuationToken)
                        : Option.none()
                    ] as const
                )
              )
            )
          ),
        signedUrl: (Key, { expiresInSeconds, filename }) =>
          Effect.andThen(
            checkKey(Key),
            attempt("cannot presign blob URL", () =>
              getSignedUrl(
                client,
                new GetObjectCommand({
                  Bucket,
                  Key,
                  ...(filename === undefined
                    ? {}
                    : { ResponseContentDisposition: attachmentDisposition(filename) })
                }),
                { expiresIn: Math.max(1, Math.floor(expiresInSeconds)) }
              )
            )
          )
      })
      return Context.make(BlobStore, store).pipe(Context.add(BlobStoreHealth, health))
    })
  )
