// What creating a Notion mirror needs before its row is written: the server's Notion token (else
// the feature is off), and the first refresh job queued with it.
import { Effect, Option } from "effect"
import { FeatureDisabled } from "../errors.js"
import { newJob } from "../jobs/use-cases.js"
import { NotionSource } from "../ports/notion-source.js"
import { notionPageIdFrom } from "./blocks.js"

/** An auto-refreshing mirror without an interval refreshes hourly. */
export const DEFAULT_NOTION_REFRESH_SECONDS = 3600

/** The Notion page a mirror starts at: its root_page_id, else the id in its source URL. */
export const mirrorRootPageId = (data: { readonly sourceUrl: string; readonly rootPageId: string | null }) =>
  notionPageIdFrom(data.rootPageId ?? data.sourceUrl)

/** Refused unless the server has a Notion token: a mirror it could never refresh is not created. */
export const requireNotion = Effect.flatMap(Effect.serviceOption(NotionSource), (source) =>
  Option.isSome(source) && source.value.enabled
    ? Effect.void
    : Effect.fail(new FeatureDisabled({ feature: "Notion mirrors" }))
)

/** The first refresh of a new mirror, queued in the transaction that creates it. */
export const firstRefreshJob = (resourceId: string) =>
  newJob({ type: "notion_refresh", resourceId, payload: { page_id: null, reason: "created" } })
