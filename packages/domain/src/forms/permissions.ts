// Which scopes each forms operation needs (forms-api.md, Endpoints and MCP tables).
import type { FormsScope } from "./scopes.js"

export const OPERATION_SCOPES = {
  capabilities: [],
  usage: [],
  listForms: ["forms:read"],
  getForm: ["forms:read"],
  createForm: ["forms:write"],
  updateDefinition: ["forms:write"],
  deleteForm: ["forms:write"],
  listVersions: ["forms:read"],
  getVersion: ["forms:read"],
  duplicateForm: ["forms:write", "forms:read"],
  publish: ["forms:publish"],
  unpublish: ["forms:publish"],
  setSlug: ["forms:write"],
  updateSettings: ["forms:write"],
  uploadAsset: ["assets:write"],
  listResponses: ["responses:read"],
  listPartialResponses: ["responses:read", "responses:partial:read"],
  getResponse: ["responses:read"],
  responseSummary: ["responses:read"],
  reports: ["responses:read"],
  exportCsv: ["responses:read"],
  insights: ["responses:read"],
  interviewAnalytics: ["responses:read"],
  downloadFile: ["files:read"]
} as const satisfies Record<string, ReadonlyArray<FormsScope>>

export type Operation = keyof typeof OPERATION_SCOPES

export const requiredScopes = (operation: Operation): ReadonlyArray<FormsScope> => OPERATION_SCOPES[operation]
