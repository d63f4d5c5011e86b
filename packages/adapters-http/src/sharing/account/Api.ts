// GET /me: the account behind the key, its storage against the quota, what it may create, the
// server's features.
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { SharingAuthentication } from "../auth.js"
import { sharingErrorsOf } from "../errors.js"

export const Me = Schema.Struct({
  account: Schema.Struct({ id: Schema.String, name: Schema.String, created_at: Schema.String }),
  key: Schema.Struct({ id: Schema.String, scopes: Schema.Array(Schema.String) }),
  storage: Schema.Struct({ used_bytes: Schema.Int, quota_bytes: Schema.Int }),
  creatable_types: Schema.Array(Schema.String),
  features: Schema.Struct({
    artifacts_enabled: Schema.Boolean,
    uploads_enabled: Schema.Boolean,
    notion_enabled: Schema.Boolean,
    analytics_enabled: Schema.Boolean,
    webhooks_enabled: Schema.Boolean
  })
}).annotate({ identifier: "Me" })

export class AccountGroup extends HttpApiGroup.make("account")
  .add(
    HttpApiEndpoint.get("me", "/me", {
      success: Me,
      error: sharingErrorsOf("insufficient_scope", "not_found")
    }).annotate(
      OpenApi.Summary,
      "The account, storage usage and quota, creatable types and server features (scope read)"
    )
  )
  .middleware(SharingAuthentication)
  .annotate(OpenApi.Description, "The account behind the key") {}
