// The sharing MCP tools for operations: files (inline uploads, previews, upload links for larger
// files), upload requests and their submissions, background jobs and webhooks.
import type { AnySharingTool } from "../tool.js"
import { filesTool, INLINE_FILE_MAX_BYTES } from "./operations/files.js"
import { jobsTool } from "./operations/jobs.js"
import { uploadRequestsTool, uploadSubmissionsTool } from "./operations/upload-requests.js"
import { webhooksTool } from "./operations/webhooks.js"

export { INLINE_FILE_MAX_BYTES }

export const OPERATIONS_TOOLS: ReadonlyArray<AnySharingTool> = [
  filesTool,
  uploadRequestsTool,
  uploadSubmissionsTool,
  jobsTool,
  webhooksTool
]

/** Limits these tools state in svc://account/context: the largest file sharing_files takes inline. */
export const OPERATIONS_LIMITS: Readonly<Record<string, number>> = {
  inline_file_max_bytes: INLINE_FILE_MAX_BYTES
}
