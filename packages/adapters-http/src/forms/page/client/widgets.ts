// The controls plain HTML lacks: a ranking list moved by pointer or keyboard, a signature pad with a
// typed alternative, uploads with progress, and "Other" text that selects its choice.
import { fill, type Strings } from "../strings.js"
import type { Touched, Uploads } from "./fields.js"

const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  text?: string
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(props)) if (v !== undefined) node.setAttribute(k, v)
  if (text !== undefined) node.textContent = text
  return node
}

/** Typing in an "Other" box picks the Other choice; picking another choice leaves the text alone. */
export const enhanceOther = (form: HTMLFormElement, changed: () => void) => {
  form.addEventListener("input", (e) => {
    const box = e.target
    if (!(box instanceof HTMLInputElement) || !box.classList.contains("other-text")) return
    const choice = box.parentElement?.querySelector<HTMLInputElement>('input[value="__other__"]')
    if (choice !== null && choice !== undefined && box.value.trim() !== "" && !choice.checked) {
      choice.checked = true
      changed()
    }
  })
}

/** Ranking: drag an item, or move it with its buttons or Alt+Up/Alt+Down; the order is the answer. */
export const enhanceRanking = (
  list: HTMLOListElement,
  strings: Strings,
  touched: Touched,
  changed: () => void
) => {
  const blockId = list.dataset.block ?? ""
  const live = document.getElementById(`live-${blockId}`)
  const items = () => Array.from(list.querySelectorAll<HTMLLIElement>("li.rank-item"))
  const renumber = () => {
    items().forEach((li, i) => {
      const pos = li.querySelector(".rank-pos")
      if (pos !== null) pos.textContent = String(i + 1)
      const select = li.querySelector("select")
      if (select !== null) select.value = ""
      li.querySelector<HTMLButtonElement>("button.up")?.toggleAttribute("disabled", i === 0)
      li.querySelector<HTMLButtonElement>("button.down")?.toggleAttribute(
        "disabled",
        i === items().length - 1
      )
    })
  }
  const settle = (li: HTMLLIElement) => {
    touched.add(blockId)
    renumber()
    const label = li.querySelector(".rank-text")?.textContent ?? ""
    if (live !== null) live.textContent = `${label} ${strings.movedTo} ${items().indexOf(li) + 1}`
    changed()
  }
  const move = (li: HTMLLIElement, by: number) => {
    const all = items()
    const to = all.indexOf(li) + by
    if (to < 0 || to >= all.length) return
    const ref = by < 0 ? all[to] : all[to]?.nextSibling
    list.insertBefore(li, ref ?? null)
    settle(li)
  }
  // A mouse drag would otherwise start the browser's own drag of the item's text, cancelling ours.
  list.addEventListener("dragstart", (e) => e.preventDefault())
  for (const li of items()) {
    li.tabIndex = 0
    const label = li.querySelector(".rank-text")?.textContent ?? ""
    li.setAttribute("aria-label", label)
    const up = el(
      "button",
      { type: "button", class: "rank-move up", "aria-label": `${strings.moveUp}: ${label}` },
      "↑"
    )
    const down = el(
      "button",
      { type: "button", class: "rank-move down", "aria-label": `${strings.moveDown}: ${label}` },
      "↓"
    )
    up.addEventListener("click", () => {
      move(li, -1)
      up.focus()
    })
    down.addEventListener("click", () => {
      move(li, 1)
      down.focus()
    })
    li.append(up, down)
    li.addEventListener("keydown", (e) => {
      if (e.target !== li || !e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return
      e.preventDefault()
      move(li, e.key === "ArrowUp" ? -1 : 1)
      li.focus()
    })
    li.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || (e.target instanceof HTMLElement && e.target.closest("button,select") !== null))
        return
      e.preventDefault()
      li.classList.add("dragging")
      // Listened on the document: moving the item in the list would drop a pointer capture.
      const onMove = (m: PointerEvent) => {
        const others = items().filter((x) => x !== li)
        const after = others.find((x) => {
          const r = x.getBoundingClientRect()
          return m.clientY < r.top + r.height / 2
        })
        if (after !== li.nextElementSibling) list.insertBefore(li, after ?? null)
      }
      const onUp = () => {
        li.classList.remove("dragging")
        document.removeEventListener("pointermove", onMove)
        document.removeEventListener("pointerup", onUp)
        document.removeEventListener("pointercancel", onUp)
        settle(li)
      }
      document.addEventListener("pointermove", onMove)
      document.addEventListener("pointerup", onUp)
      document.addEventListener("pointercancel", onUp)
    })
  }
  renumber()
  return { renumber }
}

/** Signature: draw on a canvas, or type a name that is drawn for you; the answer is a PNG data URL. */
export const enhanceSignature = (box: HTMLElement, strings: Strings, changed: () => void) => {
  const input = box.querySelector<HTMLInputElement>('input[type="hidden"]')
  if (input === null) return
  const width = Number(box.dataset.width ?? 320)
  const height = Number(box.dataset.height ?? 160)
  const ratio = window.devicePixelRatio || 1
  const canvas = el("canvas", { class: "sig-pad", role: "img", "aria-label": strings.signatureHelp })
  canvas.width = width * ratio
  canvas.height = height * ratio
  canvas.style.width = `${width}px`
  canvas.style.maxWidth = "100%"
  canvas.style.aspectRatio = `${width} / ${height}`
  const ctx = canvas.getContext("2d")
  if (ctx === null) return
  ctx.scale(ratio, ratio)
  ctx.lineWidth = 2.2
  ctx.lineCap = "round"
  ctx.strokeStyle = "#111"
  const typed = el("input", {
    type: "text",
    class: "sig-typed",
    "aria-label": strings.typedSignature,
    maxlength: "80",
    hidden: ""
  })
  const clear = el("button", { type: "button", class: "button secondary small" }, strings.clear)
  const toggle = el("button", { type: "button", class: "button secondary small" }, strings.typeInstead)
  const tools = el("div", { class: "sig-tools" })
  tools.append(toggle, clear)
  box.prepend(canvas, typed, tools)
  const wipe = () => {
    ctx.clearRect(0, 0, width, height)
  }
  const commit = (empty: boolean) => {
    input.value = empty ? "" : canvas.toDataURL("image/png")
    changed()
  }
  let drawing = false
  let drawn = false
  const point = (e: PointerEvent) => {
    const r = canvas.getBoundingClientRect()
    return [((e.clientX - r.left) / r.width) * width, ((e.clientY - r.top) / r.height) * height] as const
  }
  canvas.addEventListener("pointerdown", (e) => {
    drawing = true
    canvas.setPointerCapture(e.pointerId)
    const [x, y] = point(e)
    ctx.beginPath()
    ctx.moveTo(x, y)
  })
  canvas.addEventListener("pointermove", (e) => {
    if (!drawing) return
    const [x, y] = point(e)
    ctx.lineTo(x, y)
    ctx.stroke()
    drawn = true
  })
  const end = () => {
    if (!drawing) return
    drawing = false
    if (drawn) commit(false)
  }
  canvas.addEventListener("pointerup", end)
  canvas.addEventListener("pointercancel", end)
  clear.addEventListener("click", () => {
    wipe()
    drawn = false
    typed.value = ""
    commit(true)
  })
  toggle.addEventListener("click", () => {
    const typing = typed.hidden
    typed.hidden = !typing
    toggle.textContent = typing ? strings.drawInstead : strings.typeInstead
    if (typing) typed.focus()
  })
  typed.addEventListener("input", () => {
    wipe()
    const name = typed.value.trim()
    if (name === "") return commit(true)
    ctx.font = `italic ${Math.round(height * 0.32)}px "Brush Script MT", "Segoe Script", cursive`
    ctx.fillStyle = "#111"
    ctx.textBaseline = "middle"
    ctx.fillText(name, 12, height / 2, width - 24)
    commit(false)
  })
  if (input.value !== "") {
    const image = new Image()
    image.onload = () => ctx.drawImage(image, 0, 0, width, height)
    image.src = input.value
  }
}

export interface UploadDeps {
  readonly strings: Strings
  readonly uploads: Uploads
  readonly ensureStarted: () => Promise<{ id: string; token: string } | null>
  readonly upload: (
    id: string,
    token: string,
    blockId: string,
    file: File,
    onProgress: (f: number) => void
  ) => Promise<{ status: number; data?: { key: string; filename: string }; error?: { code: string } }>
  readonly showError: (blockId: string, rule: string | undefined) => void
  readonly changed: () => void
}

/** Uploads: each picked file goes up at once with a progress bar; the answer is the uploaded keys. */
export const enhanceUpload = (input: HTMLInputElement, blockId: string, deps: UploadDeps) => {
  const list = input.parentElement?.querySelector("ul.files")
  if (list === null || list === undefined) return
  const maxFiles = Number(input.dataset.maxFiles ?? 1)
  const maxBytes = Number(input.dataset.maxMb ?? 10) * 1024 * 1024
  const render = () => {
    list.replaceChildren(
      ...(deps.uploads.get(blockId) ?? []).map((f) => {
        const li = el("li", { class: "file done" })
        li.append(el("span", { class: "file-name" }, `${deps.strings.uploaded}: ${f.filename}`))
        const remove = el(
          "button",
          {
            type: "button",
            class: "button secondary small",
            "aria-label": `${deps.strings.remove}: ${f.filename}`
          },
          deps.strings.remove
        )
        remove.addEventListener("click", () => {
          deps.uploads.set(
            blockId,
            (deps.uploads.get(blockId) ?? []).filter((x) => x.key !== f.key)
          )
          render()
          deps.changed()
          input.focus()
        })
        li.append(remove)
        return li
      })
    )
  }
  render()
  input.addEventListener("change", async () => {
    const files = Array.from(input.files ?? [])
    input.value = ""
    deps.showError(blockId, undefined)
    for (const file of files) {
      if ((deps.uploads.get(blockId) ?? []).length >= maxFiles) {
        deps.showError(blockId, "files")
        break
      }
      if (file.size > maxBytes) {
        deps.showError(blockId, "fileTooLarge")
        continue
      }
      const started = await deps.ensureStarted()
      if (started === null) return
      const li = el("li", { class: "file" })
      const bar = el("progress", {
        max: "100",
        value: "0",
        "aria-label": `${deps.strings.uploading} ${file.name}`
      })
      li.append(el("span", { class: "file-name" }, file.name), bar)
      list.append(li)
      const reply = await deps.upload(started.id, started.token, blockId, file, (f) => {
        bar.value = Math.round(f * 100)
      })
      li.remove()
      if (reply.status === 201 && reply.data !== undefined) {
        deps.uploads.set(blockId, [
          ...(deps.uploads.get(blockId) ?? []),
          { key: reply.data.key, filename: file.name }
        ])
        render()
        deps.changed()
      } else {
        deps.showError(
          blockId,
          reply.status === 413
            ? "fileTooLarge"
            : reply.status === 422 || reply.status === 415
              ? "fileType"
              : "invalid"
        )
      }
    }
  })
  return { render }
}

/** Statement text colours, through the CSSOM (the CSP admits no inline style attributes). */
export const applyRunColours = (root: ParentNode) => {
  for (const run of Array.from(root.querySelectorAll<HTMLElement>("span.run"))) {
    const { color, bg } = run.dataset
    if (color !== undefined && CSS.supports("color", color)) run.style.color = color
    if (bg !== undefined && CSS.supports("background-color", bg)) run.style.backgroundColor = bg
  }
}

export const fillText = fill
