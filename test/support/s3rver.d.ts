// Minimal typings for the s3rver test dependency (it ships none).
declare module "s3rver" {
  interface S3rverOptions {
    readonly port?: number
    readonly address?: string
    readonly silent?: boolean
    readonly directory: string
    readonly configureBuckets?: ReadonlyArray<{ readonly name: string }>
  }
  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
