// The sharing MCP tools, in the order tools/list shows them: queries, authoring, then the
// operations (files, upload requests, jobs, webhooks; helper wt-tools' file).
import type { AnySharingTool } from "../tool.js"
import { AUTHORING_TOOLS } from "./authoring.js"
import { OPERATIONS_LIMITS, OPERATIONS_TOOLS } from "./operations.js"
import { QUERY_TOOLS } from "./query.js"

export const SHARING_TOOLS: ReadonlyArray<AnySharingTool> = [
  ...QUERY_TOOLS,
  ...AUTHORING_TOOLS,
  ...OPERATIONS_TOOLS
]

/** Limits the tools state (svc://account/context `limits`). */
export const SHARING_TOOL_LIMITS: Readonly<Record<string, number>> = { ...OPERATIONS_LIMITS }
