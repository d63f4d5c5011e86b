// In-memory ArtifactDeployments: the twin of sql/artifact-deployments.ts.
import { ArtifactDeployments } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "./store.js"

export const MemoryArtifactDeploymentsLive = Layer.effect(
  ArtifactDeployments,
  Effect.map(Effect.service(MemoryStore), ({ deployments }) =>
    ArtifactDeployments.of({
      insert: (d) => Effect.sync(() => void deployments.set(d.id, d)),
      get: (tenantId, id) =>
        Effect.sync(() =>
          Option.filter(Option.fromNullishOr(deployments.get(id)), (d) => d.tenantId === tenantId)
        ),
      getAnyTenant: (id) => Effect.sync(() => Option.fromNullishOr(deployments.get(id))),
      discard: (id) => Effect.sync(() => void deployments.delete(id))
    })
  )
)
