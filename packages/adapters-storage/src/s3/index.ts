// @folio/adapters-storage/s3: the S3 blob store alone. Its SDK is ~0.18 s of loading a process
// that never talks to S3 (the embedded default, every CLI command), so the package's index leaves
// it out and the app imports this entry only when BLOB_STORE=s3.
export * from "../blob/s3.js"
