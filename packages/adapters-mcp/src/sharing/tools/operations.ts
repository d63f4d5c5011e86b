// The sharing MCP tools for operations: files (inline uploads, previews, upload links for larger
// files), upload requests and their submissions, background jobs and webhooks.
import type { AnySharingTool } from "../tool.js"
import { filesTool } from "./operations/files.js"
import { jobsTool } from "./operations/jobs.js"
import { uploadRequestsTool, uploadSubmissionsTool } from "./operations/upload-requests.js"
import { webhooksTool } from "./operations/webhooks.js"

export { INLINE_FILE_MAX_BYTES } from "./operations/files.js"

export const OPERATIONS_TOOLS: ReadonlyArray<AnySharingTool> = [
  filesTool,
  uploadRequestsTool,
  uploadSubmissionsTool,
  jobsTool,
  webhooksTool
]
