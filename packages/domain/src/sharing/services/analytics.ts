// SharingAnalytics: the owner's analytics routes (summary, exports) as one service over their ports.
import { Context, type Effect, Layer } from "effect"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { exportAccountVisits, exportResourceVisits, resourceAnalytics } from "../analytics/use-cases.js"
import { AnalyticsStore } from "../ports/analytics.js"
import { ResourceRepository } from "../ports/resources.js"

const analytics = {
  summary: resourceAnalytics,
  exportResource: exportResourceVisits,
  exportAccount: exportAccountVisits
}

export const makeSharingAnalytics = bindPortsFromContext(analytics, AnalyticsStore, ResourceRepository)

export class SharingAnalytics extends Context.Service<
  SharingAnalytics,
  Effect.Success<typeof makeSharingAnalytics>
>()("@folio/domain/SharingAnalytics") {}

export const SharingAnalyticsLive = Layer.effect(SharingAnalytics, makeSharingAnalytics)
