// A real S3-protocol server (s3rver) on 127.0.0.1 for the S3 adapter's tests.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import S3rver from "s3rver"

export const S3_BUCKET = "folio-test"

/** The S3 adapter's options for an s3rver listening on `port`. */
export const s3rverOptions = (port: number) => ({
  endpoint: `http://127.0.0.1:${port}`,
  region: "us-east-1",
  bucket: S3_BUCKET,
  // s3rver accepts only this key pair.
  accessKeyId: "S3RVER",
  secretAccessKey: "S3RVER",
  forcePathStyle: true
})

export const startS3 = async () => {
  const directory = mkdtempSync(join(tmpdir(), "folio-s3rver-"))
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: S3_BUCKET }]
  })
  const { port } = await server.run()
  return {
    options: s3rverOptions(port),
    close: async () => {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    }
  }
}
