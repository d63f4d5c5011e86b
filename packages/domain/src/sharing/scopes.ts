// The sharing service's API key scopes, as the spec lists them. They do not include each other: a
// key with only `write` cannot call a GET route.
import { Schema } from "effect"
import type { ScopeSet } from "../identity/scopes.js"

export const SHARING_SCOPES = ["read", "write", "delete"] as const

export const SharingScope = Schema.Literals(SHARING_SCOPES)
export type SharingScope = typeof SharingScope.Type

/** What identity needs to issue and parse sharing keys. */
export const SHARING_SCOPE_SET: ScopeSet = {
  service: "sharing",
  scopes: SHARING_SCOPES,
  // Reading; creating and deleting are an admin's to grant.
  memberDefaults: ["read"]
}

/**
 * The scopes of each sharing operation, named `<area>.<operation>` as the REST API groups them. The
 * spec's rule: GET routes and the two simulations need `read`; creating, changing, uploading and
 * queueing need `write`; deleting and revoking need `delete`. The request guard checks a keyed
 * request against this table before it reads the body.
 */
export const SHARING_OPERATION_SCOPES = {
  "account.me": ["read"],
  "analytics.summary": ["read"],
  "analytics.exportResource": ["read"],
  "analytics.exportAccount": ["read"],
  "artifacts.create": ["write"],
  "artifacts.deploy": ["write"],
  "artifacts.files": ["read"],
  "artifacts.source": ["read"],
  "bio.replace": ["write"],
  "bio.setAvatar": ["write"],
  "bio.removeAvatar": ["delete"],
  "bio.setCover": ["write"],
  "bio.removeCover": ["delete"],
  "bio.addFileBlock": ["write"],
  "bio.replaceBlockFile": ["write"],
  "bio.setBlockThumbnail": ["write"],
  "bio.listSubmissions": ["read"],
  "bio.exportSubmissions": ["read"],
  "bio.deleteSubmission": ["delete"],
  "collections.addItem": ["write"],
  "collections.arrange": ["write"],
  "collections.removeItem": ["delete"],
  "files.upload": ["write"],
  "files.preview": ["read"],
  "jobs.optimizeOriginal": ["write"],
  "jobs.refreshNotion": ["write"],
  "jobs.notionPages": ["read"],
  "jobs.notionPage": ["read"],
  "jobs.notionAssets": ["read"],
  "jobs.list": ["read"],
  "jobs.get": ["read"],
  "jobs.retry": ["write"],
  "resources.bulkCreate": ["write"],
  "resources.importLinks": ["write"],
  "resources.create": ["write"],
  "resources.list": ["read"],
  "resources.get": ["read"],
  "resources.update": ["write"],
  "resources.delete": ["delete"],
  "resources.qr": ["read"],
  "resources.listMarkdownVersions": ["read"],
  "resources.getMarkdownVersion": ["read"],
  "resources.restoreMarkdownVersion": ["write"],
  "resources.simulateLink": ["read"],
  "resources.simulateSavedLink": ["read"],
  "uploadRequests.list": ["read"],
  "uploadRequests.create": ["write"],
  "uploadRequests.get": ["read"],
  "uploadRequests.patch": ["write"],
  "uploadRequests.status": ["write"],
  "uploadRequests.rotateToken": ["write"],
  "uploadRequests.revoke": ["delete"],
  "uploadRequests.listSubmissions": ["read"],
  "uploadRequests.getSubmission": ["read"],
  "uploadRequests.review": ["write"],
  "webhooks.list": ["read"],
  "webhooks.get": ["read"],
  "webhooks.delete": ["delete"],
  "webhooks.create": ["write"],
  "webhooks.patch": ["write"],
  "webhooks.rotateSecret": ["write"],
  "webhooks.enable": ["write"],
  "webhooks.disable": ["write"],
  "webhooks.test": ["write"],
  "webhooks.deliveries": ["read"]
} as const satisfies Record<string, ReadonlyArray<SharingScope>>

export type SharingOperation = keyof typeof SHARING_OPERATION_SCOPES

/** The scopes of an operation named `<area>.<operation>`; undefined for a name the table lacks. */
export const sharingOperationScopes = (operation: string): ReadonlyArray<SharingScope> | undefined =>
  Object.hasOwn(SHARING_OPERATION_SCOPES, operation)
    ? SHARING_OPERATION_SCOPES[operation as SharingOperation]
    : undefined
