// What GET /me tells a sharing key's holder: the account, the key, storage use against the quota,
// the resource types it may create and the server's features.
import { ResourceType } from "./resources/resource.js"

/** What the account may create: the JSON types through `POST /resources`, files and images by upload. */
export const CREATABLE_TYPES = ResourceType.literals

export interface SharingFeatures {
  /** HTML artifacts: on unless the server turns them off (ARTIFACTS_ENABLED). */
  readonly artifacts_enabled: boolean
  readonly uploads_enabled: boolean
  readonly notion_enabled: boolean
  readonly analytics_enabled: boolean
  readonly webhooks_enabled: boolean
}

/** The features this server has today; each later part of the service turns its own on. */
export const SHARING_FEATURES: SharingFeatures = {
  artifacts_enabled: false,
  uploads_enabled: true,
  notion_enabled: false,
  analytics_enabled: true,
  webhooks_enabled: true
}
