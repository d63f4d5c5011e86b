// The UploadedFile entries a response's reads show: pure, so the read views need none of the
// upload use cases (files.ts).
import type { ResponseFileRecord } from "../ports/responses.js"

/** UploadedFile entries of a response: committed uploads its file_upload answers reference. */
export const uploadedFilesOf = (
  answers: Readonly<Record<string, unknown>>,
  files: ReadonlyArray<ResponseFileRecord>,
  downloadUrl: (file: ResponseFileRecord) => string
) => {
  const referenced = new Set(
    Object.values(answers).flatMap((v) => (Array.isArray(v) ? v.filter((x) => typeof x === "string") : []))
  )
  return files
    .filter((f) => referenced.has(f.key))
    .map((f) => ({ key: f.key, id: f.id, filename: f.filename, downloadUrl: downloadUrl(f) }))
}
