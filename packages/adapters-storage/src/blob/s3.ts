// S3 BlobStore: any S3-compatible server (path-style by default), the AWS SDK doing all request
// signing, downloads as presigned GET URLs.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException
} from "@aws-sdk/client-s3"
import { getSignedUrl } from "@aws-sdk/s3-request-presigner"
import { attachmentDisposition, BlobStore, StorageError } from "@folio/domain"
import { Context, Effect, Layer, Option } from "effect"
import { BlobStoreHealth } from "../health.js"
import { checkKey } from "./memory.js"

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
      const attempt = <A>(message: string, run: (signal: AbortSignal) => Promise<A>) =>
        Effect.tryPromise({ try: run, catch: (cause) => new StorageError({ message, cause }) })
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
