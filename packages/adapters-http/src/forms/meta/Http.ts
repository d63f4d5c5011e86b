// Handlers of the meta group, through the forms route combinator like every keyed forms handler.
import { FormAuthoring, keyBudget, Principal, RateLimitStore, UsageBatcher, UsageStore } from "@folio/domain"
import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { FormsApi } from "../Api.js"
import { data } from "../envelope.js"
import { formsRoute } from "../route.js"

export const MetaLive = HttpApiBuilder.group(FormsApi, "meta", (handlers) =>
  Effect.gen(function* () {
    const forms = yield* FormAuthoring
    const limits = yield* RateLimitStore
    const usage = yield* UsageStore
    const batcher = yield* UsageBatcher
    return handlers
      .handle("capabilities", () => formsRoute("capabilities", Effect.map(forms.capabilities(), data)))
      .handle("usage", () =>
        formsRoute(
          "usage",
          Effect.gen(function* () {
            const principal = yield* Principal
            const decision = yield* keyBudget(limits, principal.keyId)
            const now = yield* Clock.currentTimeMillis
            yield* batcher.flush
            const requests = yield* usage.counts(principal.tenant, "forms", new Date(now))
            return data({
              key: { id: principal.keyId, scopes: principal.scopes },
              rateLimit: {
                limit: decision.limit,
                remaining: decision.remaining,
                resetSeconds: decision.resetSeconds
              },
              requests
            })
          })
        )
      )
  })
)
