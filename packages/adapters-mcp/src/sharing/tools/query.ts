// The query tools: list, get, search and labels of resources, and a resource's analytics summary.
import type { AnySharingTool } from "../tool.js"

export const QUERY_TOOLS: ReadonlyArray<AnySharingTool> = []
