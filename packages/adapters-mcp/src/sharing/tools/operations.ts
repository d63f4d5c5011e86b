// The operations tools (files, upload requests and their submissions, jobs, webhooks): helper
// wt-tools fills this file in. The registry (index.ts) concatenates it with the others.
import type { AnySharingTool } from "../tool.js"

export const OPERATIONS_TOOLS: ReadonlyArray<AnySharingTool> = []

/**
 * Limits these tools state, shown in svc://account/context under `limits` (e.g. the largest file a
 * tool takes inline), by name in snake_case, in bytes or counts as the name says.
 */
export const OPERATIONS_LIMITS: Readonly<Record<string, number>> = {}
