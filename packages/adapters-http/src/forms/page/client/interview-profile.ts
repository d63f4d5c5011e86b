// The live profile panel of the interview page (interview-experience.ts renders it): what the
// interview has understood so far. Lines are keyed by field and changed in place, so the polite live
// region announces what a turn added or corrected, not the whole list again.
import type { ProfileItem } from "./interview-api.js"

export interface LiveProfile {
  /** A new interview's profile (start, restart, resume): lines not in it go. */
  readonly reset: (items: ReadonlyArray<ProfileItem> | undefined) => void
  /** A turn's profile: new lines are added, changed values rewritten. */
  readonly update: (items: ReadonlyArray<ProfileItem> | undefined) => void
}

const line = (item: ProfileItem): HTMLDivElement => {
  const div = document.createElement("div")
  div.className = "profile-item"
  div.dataset.field = item.fieldId
  const dt = document.createElement("dt")
  dt.textContent = item.label
  const dd = document.createElement("dd")
  dd.textContent = item.value
  div.append(dt, dd)
  return div
}

/** The panel's behaviour, or one that does nothing when the page has no panel (liveProfile off). */
export const makeProfile = (panel: HTMLElement | null): LiveProfile => {
  const list = panel?.querySelector<HTMLElement>("#profile-list") ?? null
  const empty = panel?.querySelector<HTMLElement>("#profile-empty") ?? null
  if (list === null) return { reset: () => {}, update: () => {} }
  const lines = () => Array.from(list.querySelectorAll<HTMLDivElement>(".profile-item"))
  const update = (items: ReadonlyArray<ProfileItem> | undefined) => {
    if (items === undefined) return
    items.forEach((item, i) => {
      const byField = (id: string) => lines().find((l) => l.dataset.field === id)
      const existing = byField(item.fieldId)
      if (existing === undefined) {
        // In the definition's order: before the first later line already shown.
        const next = items
          .slice(i + 1)
          .map((later) => byField(later.fieldId))
          .find((l) => l !== undefined)
        list.insertBefore(line(item), next ?? null)
        return
      }
      const dd = existing.querySelector("dd")
      if (dd !== null && dd.textContent !== item.value) dd.textContent = item.value
    })
    if (empty !== null) empty.hidden = lines().length > 0
  }
  return {
    reset: (items) => {
      const keep = new Set((items ?? []).map((i) => i.fieldId))
      for (const l of lines()) if (!keep.has(l.dataset.field ?? "")) l.remove()
      if (empty !== null) empty.hidden = lines().length > 0
      update(items)
    },
    update
  }
}
