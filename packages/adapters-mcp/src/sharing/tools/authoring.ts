// The authoring tools: links (rules, variants, simulate), Markdown pages (versions, restore),
// collections and bio pages, and managing resources (archive, pin, labels, delete).
import type { AnySharingTool } from "../tool.js"

export const AUTHORING_TOOLS: ReadonlyArray<AnySharingTool> = []
