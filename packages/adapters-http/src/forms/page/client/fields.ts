// Reads a block's answer from the page's inputs and writes one back (resume), using the field names
// the server renders (blocks.ts) and a plain post carries (form-post.ts).
import type { AnswerValue, Block } from "@folio/domain/browser"

export const OTHER = "__other__"

const byName = (
  form: HTMLFormElement,
  name: string
): Array<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement> =>
  Array.from(form.querySelectorAll<HTMLInputElement>(`[name="${CSS.escape(name)}"]`))

const text = (form: HTMLFormElement, name: string): string => {
  const el = byName(form, name)[0]
  return el === undefined ? "" : el.value
}

const checked = (form: HTMLFormElement, name: string): Array<string> =>
  byName(form, name)
    .filter((el): el is HTMLInputElement => el instanceof HTMLInputElement && el.checked)
    .map((el) => el.value)

const numeric = (raw: string): AnswerValue | undefined => {
  if (raw.trim() === "") return undefined
  const n = Number(raw)
  return Number.isFinite(n) ? n : raw
}

/** Keys of the files uploaded for each file_upload block (kept by the upload widget). */
export type Uploads = Map<string, Array<{ key: string; filename: string }>>

/** Rankings the respondent has arranged (a shown order only counts once it was touched or accepted). */
export type Touched = Set<string>

export const readAnswer = (
  form: HTMLFormElement,
  block: Block,
  uploads: Uploads,
  touched: Touched
): AnswerValue | undefined => {
  const id = block.id
  switch (block.type) {
    case "short_text":
    case "long_text":
    case "email":
    case "date":
    case "time":
    case "datetime":
    case "dropdown":
    case "signature": {
      const v = text(form, id)
      return v === "" ? undefined : v
    }
    case "number":
      return numeric(text(form, id))
    case "rating": {
      const v = checked(form, id)[0]
      return v === undefined ? undefined : numeric(v)
    }
    case "multiple_choice": {
      const v = checked(form, id)[0]
      if (v !== OTHER) return v
      const other = text(form, `${id}.other`).trim()
      return other === "" ? undefined : other
    }
    case "checkboxes": {
      const values = checked(form, id)
      const out = values.filter((v) => v !== OTHER)
      const other = text(form, `${id}.other`).trim()
      if (values.includes(OTHER) && other !== "") out.push(other)
      return out.length === 0 ? undefined : out
    }
    case "privacy_consent":
      return checked(form, id)[0]
    case "address": {
      const parts = [0, 1, 2].map((i) => text(form, `${id}.${i}`))
      return parts.every((p) => p === "") ? undefined : parts
    }
    case "date_range": {
      const parts = [0, 1].map((i) => text(form, `${id}.${i}`))
      return parts.every((p) => p === "") ? undefined : parts
    }
    case "ranking": {
      if (!touched.has(id)) return undefined
      const list = form.querySelector(`ol.ranking[data-block="${id}"]`)
      const order = Array.from(list?.querySelectorAll<HTMLElement>("li.rank-item") ?? []).map(
        (li) => li.dataset.choice ?? ""
      )
      return order.length === 0 ? undefined : order
    }
    case "file_upload": {
      const keys = (uploads.get(id) ?? []).map((f) => f.key)
      return keys.length === 0 ? undefined : keys
    }
    default:
      return undefined
  }
}

const setChecked = (form: HTMLFormElement, name: string, values: ReadonlyArray<string>) => {
  for (const el of byName(form, name))
    if (el instanceof HTMLInputElement) el.checked = values.includes(el.value)
}

const setText = (form: HTMLFormElement, name: string, value: string) => {
  const el = byName(form, name)[0]
  if (el !== undefined) el.value = value
}

/** Puts a saved answer back into the page's inputs. */
export const writeAnswer = (
  form: HTMLFormElement,
  block: Block,
  value: unknown,
  uploads: Uploads,
  touched: Touched
): void => {
  const id = block.id
  const strings = Array.isArray(value) ? value.map(String) : []
  switch (block.type) {
    case "multiple_choice": {
      const known = block.options.choices.some((c) => c.id === value)
      setChecked(form, id, [known ? String(value) : OTHER])
      if (!known) setText(form, `${id}.other`, String(value))
      return
    }
    case "checkboxes": {
      const known = strings.filter((v) => block.options.choices.some((c) => c.id === v))
      const other = strings.find((v) => !known.includes(v))
      setChecked(form, id, other === undefined ? known : [...known, OTHER])
      if (other !== undefined) setText(form, `${id}.other`, other)
      return
    }
    case "rating":
    case "privacy_consent":
      setChecked(form, id, [String(value)])
      return
    case "address":
    case "date_range":
      strings.forEach((v, i) => {
        setText(form, `${id}.${i}`, v)
      })
      return
    case "ranking": {
      const list = form.querySelector(`ol.ranking[data-block="${id}"]`)
      if (list === null) return
      for (const choice of strings) {
        const li = list.querySelector(`li.rank-item[data-choice="${CSS.escape(choice)}"]`)
        if (li !== null) list.appendChild(li)
      }
      touched.add(id)
      return
    }
    case "file_upload":
      uploads.set(
        id,
        strings.map((key) => ({ key, filename: key.split("/").pop() ?? key }))
      )
      return
    default:
      setText(form, id, typeof value === "string" || typeof value === "number" ? String(value) : "")
  }
}
