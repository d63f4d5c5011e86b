// The page's banner line (both scripts): one message at a time, with an optional action button.

export type BannerKind = "info" | "warn" | "error"

/** Shows `text` in the banner region (role=status in the page), replacing what was there. */
export const makeBanner = (banner: HTMLElement | null) => ({
  say: (text: string, kind: BannerKind = "info", action?: HTMLButtonElement) => {
    if (banner === null) return
    const box = document.createElement("div")
    box.className = `banner ${kind}`
    const p = document.createElement("p")
    p.textContent = text
    box.append(p)
    if (action !== undefined) box.append(action)
    banner.replaceChildren(box)
  },
  quiet: () => banner?.replaceChildren()
})
