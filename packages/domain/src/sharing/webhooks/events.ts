// The `resource.*` events the repositories write with each change (and the sweep with an expiry):
// what their `data` says of the resource. The adapter that writes one gives it its id.
import type { SharingEventRecord } from "../ports/upload-requests.js"

export const resourceEvent = (
  id: string,
  type: "resource.created" | "resource.updated" | "resource.deleted" | "resource.expired",
  r: {
    readonly id: string
    readonly tenantId: string
    readonly slug: string
    readonly type: string
    readonly title: string | null
  },
  at: Date
): SharingEventRecord => ({
  id,
  tenantId: r.tenantId,
  type,
  payload: { resource: { id: r.id, slug: r.slug, type: r.type, title: r.title } },
  createdAt: at
})
