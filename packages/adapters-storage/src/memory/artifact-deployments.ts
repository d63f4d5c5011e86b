// In-memory ArtifactDeployments: the twin of sql/artifact-deployments.ts.
import { ArtifactDeployments } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "./store.js"

export const MemoryArtifactDeploymentsLive = Layer.effect(
  ArtifactDeployments,
  Effect.map(Effect.service(MemoryStore), ({ deployments }) =>
    ArtifactDeployments.of({
      // One number per artifact, as the SQL table's unique key. Memory serves single-request
      // tests, so a claim in flight is not waited out: whoever holds the number has it.
      insert: (d) =>
        Effect.sync(() => {
          for (const held of deployments.values())
            if (held.resourceId === d.resourceId && held.number === d.number && held.id !== d.id)
              return "taken" as const
          deployments.set(d.id, d)
          return "inserted" as const
        }),
      get: (tenantId, id) =>
        Effect.sync(() =>
          Option.filter(Option.fromNullishOr(deployments.get(id)), (d) => d.tenantId === tenantId)
        ),
      getAnyTenant: (id) => Effect.sync(() => Option.fromNullishOr(deployments.get(id))),
      discard: (id) => Effect.sync(() => void deployments.delete(id))
    })
  )
)
