// Server-side HTML of each block type: a complete, working form without JavaScript (the page's
// script then enhances the same markup). Field names follow form-post.ts, so a plain post of this
// markup is a submission. Every author or respondent text goes through `html`, which escapes it.
import { type Block, COUNTRY_CODES, type FormDefinition } from "@folio/domain"
import { type Strings, fill, ruleMessage } from "./strings.js"
import { FORM_POST_NAMES } from "./form-post.js"
import { attr, escapeHtml, type Html, html, unsafeRaw } from "../../shared/index.js"

export interface RenderContext {
  readonly strings: Strings
  readonly locale: string
  readonly imageUrl: (key: string) => string
  /** Posted text fields by name, to refill the form after a refused post. */
  readonly values: ReadonlyMap<string, ReadonlyArray<string>>
  /** The rule each block's answer broke, by block id. */
  readonly errors: ReadonlyMap<string, string>
  /** Files already uploaded in an earlier attempt, by block id. */
  readonly uploaded: ReadonlyMap<string, ReadonlyArray<{ readonly key: string; readonly filename: string }>>
  /** 1-based question numbers of input blocks when the document shows numbers. */
  readonly numbers?: ReadonlyMap<string, number>
}

type Of<T extends Block["type"]> = Extract<Block, { type: T }>
type ChoiceRow = Of<"multiple_choice"> | Of<"checkboxes">

const OTHER = FORM_POST_NAMES.otherChoice

const first = (ctx: RenderContext, name: string): string => ctx.values.get(name)?.[0] ?? ""
const all = (ctx: RenderContext, name: string): ReadonlyArray<string> => ctx.values.get(name) ?? []

const describedBy = (block: Block, extra?: string) =>
  attr(
    "aria-describedby",
    [block.description ? `desc-${block.id}` : "", extra ?? "", `err-${block.id}`].filter(Boolean).join(" ")
  )

const invalid = (ctx: RenderContext, block: Block) =>
  ctx.errors.has(block.id) ? html` aria-invalid="true"` : ""
const requiredAria = (block: Block) => (block.required ? html` aria-required="true"` : "")

const number = (ctx: RenderContext, block: Block) => {
  const n = ctx.numbers?.get(block.id)
  return n === undefined ? "" : html`<span class="q-num">${n}.</span> `
}

const requiredMark = (ctx: RenderContext, block: Block) =>
  block.required ? html`<span class="req" title="${ctx.strings.required}" aria-hidden="true">*</span>` : ""

const description = (block: Block) =>
  block.description ? html`<p class="q-desc" id="desc-${block.id}">${block.description}</p>` : ""

const errorText = (ctx: RenderContext, block: Block) => {
  const rule = ctx.errors.get(block.id)
  return html`<p class="q-error" id="err-${block.id}"${rule === undefined ? html` hidden` : ""}>${rule === undefined ? "" : ruleMessage(ctx.strings, rule)}</p>`
}

/** A question with one labelled control. */
const single = (ctx: RenderContext, block: Block, control: Html, hint?: Html) =>
  html`<label class="q-label" id="lbl-${block.id}" for="in-${block.id}">${number(ctx, block)}${block.label}${requiredMark(ctx, block)}</label>${description(block)}${hint ?? ""}<div class="q-control">${control}</div>${errorText(ctx, block)}`

/** A question whose controls are a group: fieldset and legend. */
// A fieldset takes no aria-required: the legend says it in words for screen readers instead.
const group = (ctx: RenderContext, block: Block, controls: Html, hint?: Html, extraDescribed?: string) =>
  html`<fieldset class="q-group"${describedBy(block, extraDescribed)}><legend class="q-label" id="lbl-${block.id}">${number(ctx, block)}${block.label}${requiredMark(ctx, block)}${block.required ? html`<span class="sr-only"> (${ctx.strings.required})</span>` : ""}</legend>${description(block)}${hint ?? ""}<div class="q-control">${controls}</div>${errorText(ctx, block)}</fieldset>`

const textInput = (
  ctx: RenderContext,
  block: Block,
  type: string,
  extra: {
    placeholder?: string | undefined
    maxLength?: number | undefined
    minLength?: number | undefined
    inputMode?: string | undefined
    autoComplete?: string | undefined
    min?: string | number | undefined
    max?: string | number | undefined
    step?: string | number | undefined
  } = {}
) =>
  html`<input id="in-${block.id}" name="${block.id}" type="${type}"${attr("value", first(ctx, block.id) || undefined)}${attr("placeholder", extra.placeholder)}${attr("maxlength", extra.maxLength)}${attr("minlength", extra.minLength)}${attr("inputmode", extra.inputMode)}${attr("autocomplete", extra.autoComplete)}${attr("min", extra.min)}${attr("max", extra.max)}${attr("step", extra.step)}${describedBy(block)}${requiredAria(block)}${invalid(ctx, block)}>`

const INPUT_TYPES: Readonly<Record<string, string>> = { tel: "tel", url: "url", email: "email" }

const choiceImage = (
  ctx: RenderContext,
  c: { imageKey?: string | undefined; imageAlt?: string | undefined }
) =>
  c.imageKey === undefined
    ? ""
    : html`<img class="choice-img" src="${ctx.imageUrl(c.imageKey)}" alt="${c.imageAlt ?? ""}" loading="lazy">`

const choiceList = (ctx: RenderContext, block: Of<"multiple_choice"> | Of<"checkboxes">) => {
  const type = block.type === "multiple_choice" ? "radio" : "checkbox"
  const chosen = new Set(all(ctx, block.id))
  const items = block.options.choices.map(
    (c, i) =>
      html`<li class="choice" data-choice="${c.id}"><input type="${type}" id="in-${block.id}-${i}" name="${block.id}" value="${c.id}"${chosen.has(c.id) ? html` checked` : ""}><label for="in-${block.id}-${i}">${choiceImage(ctx, c)}<span>${c.label}</span></label></li>`
  )
  const other =
    block.options.allowOther === true
      ? html`<li class="choice choice-other" data-choice="${OTHER}"><input type="${type}" id="in-${block.id}-other" name="${block.id}" value="${OTHER}"${chosen.has(OTHER) ? html` checked` : ""}><label for="in-${block.id}-other">${ctx.strings.other}</label><input class="other-text" type="text" name="${block.id}.other" maxlength="500" aria-label="${ctx.strings.otherLabel}"${attr("value", first(ctx, `${block.id}.other`) || undefined)}></li>`
      : ""
  return html`<ul class="choices" data-kind="${type}">${items}${other}</ul>`
}

const selectionHint = (ctx: RenderContext, block: Of<"checkboxes">) => {
  const { minSelected: min, maxSelected: max } = block.options
  const text =
    min !== undefined && max !== undefined
      ? fill(ctx.strings.chooseBetween, { min, max })
      : min !== undefined
        ? fill(ctx.strings.chooseAtLeast, { min })
        : max !== undefined
          ? fill(ctx.strings.chooseAtMost, { max })
          : undefined
  return text === undefined ? undefined : html`<p class="q-hint" id="hint-${block.id}">${text}</p>`
}

/** Countries by name in one locale, sorted as that locale sorts (computed once per locale). */
const countriesByLocale = new Map<string, ReadonlyArray<{ readonly code: string; readonly name: string }>>()
const countriesIn = (locale: string) => {
  const known = countriesByLocale.get(locale)
  if (known !== undefined) return known
  let names: Intl.DisplayNames | undefined
  try {
    names = new Intl.DisplayNames([locale, "en"], { type: "region" })
  } catch {
    names = undefined
  }
  const collator = new Intl.Collator(locale)
  const sorted = COUNTRY_CODES.map((code) => ({ code, name: names?.of(code) ?? code })).sort((a, b) =>
    collator.compare(a.name, b.name)
  )
  countriesByLocale.set(locale, sorted)
  return sorted
}

const countryOptions = (ctx: RenderContext, selected: string) =>
  countriesIn(ctx.locale).map(
    (c) => html`<option value="${c.code}"${c.code === selected ? html` selected` : ""}>${c.name}</option>`
  )

const dropdown = (ctx: RenderContext, block: Of<"dropdown">) => {
  const selected = first(ctx, block.id)
  const options =
    block.options.dataset === "countries"
      ? countryOptions(ctx, selected)
      : block.options.choices.map(
          (c) => html`<option value="${c.id}"${c.id === selected ? html` selected` : ""}>${c.label}</option>`
        )
  return single(
    ctx,
    block,
    html`<select id="in-${block.id}" name="${block.id}"${block.options.dataset === "countries" ? html` autocomplete="country"` : ""}${describedBy(block)}${requiredAria(block)}${invalid(ctx, block)}><option value="">${ctx.strings.choose}</option>${options}</select>`
  )
}

const ranking = (ctx: RenderContext, block: Of<"ranking">) => {
  const choices = block.options.choices
  const positions = choices.map((_, i) => first(ctx, `${block.id}.${i}`))
  // Without the script: one select per position. The script turns the list into a draggable one.
  const rows = choices.map(
    (c, i) =>
      html`<li class="rank-item" data-choice="${c.id}"><span class="rank-pos" aria-hidden="true">${i + 1}</span><label class="rank-label" for="in-${block.id}-${i}"><span class="sr-only">${ctx.strings.rankPosition} ${i + 1}</span></label><select class="rank-select" id="in-${block.id}-${i}" name="${block.id}.${i}"><option value="">${ctx.strings.choose}</option>${choices.map((o) => html`<option value="${o.id}"${positions[i] === o.id ? html` selected` : ""}>${o.label}</option>`)}</select><span class="rank-text">${choiceImage(ctx, c)}${c.label}</span></li>`
  )
  return group(
    ctx,
    block,
    html`<ol class="ranking" data-block="${block.id}">${rows}</ol><p class="sr-only" aria-live="polite" id="live-${block.id}"></p>`,
    html`<p class="q-hint rank-hint" id="hint-${block.id}"><span class="nojs-only">${ctx.strings.noJsRanking}</span><span class="js-only">${ctx.strings.rankingHelp}</span></p>`,
    `hint-${block.id}`
  )
}

const rating = (ctx: RenderContext, block: Of<"rating">) => {
  const low = block.options.zeroBased === true ? 0 : 1
  const chosen = first(ctx, block.id)
  const values = Array.from({ length: block.options.scale }, (_, i) => low + i)
  const shape = block.options.shape
  const items = values.map(
    (v) =>
      html`<li><input type="radio" id="in-${block.id}-${v}" name="${block.id}" value="${v}"${String(v) === chosen ? html` checked` : ""}><label for="in-${block.id}-${v}"><span class="rate-mark" aria-hidden="true">${shape === "star" ? "★" : shape === "circle" ? "●" : v}</span><span class="sr-only">${v}</span></label></li>`
  )
  const labels =
    block.options.lowLabel !== undefined || block.options.highLabel !== undefined
      ? html`<p class="rate-labels" id="rl-${block.id}"><span>${block.options.lowLabel ?? ""}</span><span>${block.options.highLabel ?? ""}</span></p>`
      : ""
  return group(
    ctx,
    block,
    html`<ul class="rating shape-${shape}">${items}</ul>${labels}`,
    undefined,
    labels === "" ? undefined : `rl-${block.id}`
  )
}

const dateRange = (ctx: RenderContext, block: Of<"date_range">) =>
  group(
    ctx,
    block,
    html`<div class="pair"><label for="in-${block.id}-0">${ctx.strings.from}</label><input type="date" id="in-${block.id}-0" name="${block.id}.0"${attr("min", block.options.min)}${attr("max", block.options.max)}${attr("value", first(ctx, `${block.id}.0`) || undefined)}><label for="in-${block.id}-1">${ctx.strings.to}</label><input type="date" id="in-${block.id}-1" name="${block.id}.1"${attr("min", block.options.min)}${attr("max", block.options.max)}${attr("value", first(ctx, `${block.id}.1`) || undefined)}></div>`
  )

const address = (ctx: RenderContext, block: Of<"address">) => {
  const parts: ReadonlyArray<[string, string]> = [
    [ctx.strings.postalCode, "postal-code"],
    [ctx.strings.street, "street-address"],
    [ctx.strings.detail, "address-line2"]
  ]
  return group(
    ctx,
    block,
    html`<div class="address">${parts.map(([label, auto], i) => html`<label for="in-${block.id}-${i}">${label}</label><input type="text" id="in-${block.id}-${i}" name="${block.id}.${i}" maxlength="500" autocomplete="${auto}"${attr("value", first(ctx, `${block.id}.${i}`) || undefined)}>`)}</div>`
  )
}

const fileUpload = (ctx: RenderContext, block: Of<"file_upload">) => {
  const accept = block.options.acceptedMimeTypes?.join(",")
  const kept = ctx.uploaded.get(block.id) ?? []
  return group(
    ctx,
    block,
    html`<input type="file" id="in-${block.id}" name="${block.id}"${block.options.maxFiles > 1 ? html` multiple` : ""}${attr("accept", accept || undefined)} data-max-files="${block.options.maxFiles}" data-max-mb="${block.options.maxSizeMb}" aria-labelledby="lbl-${block.id}"${describedBy(block, `hint-${block.id}`)}><ul class="files">${kept.map((f, i) => html`<li><input type="checkbox" id="keep-${block.id}-${i}" name="${block.id}.keep" value="${f.key}" checked><label for="keep-${block.id}-${i}">${ctx.strings.keptFile}: ${f.filename}</label></li>`)}</ul>`,
    html`<p class="q-hint" id="hint-${block.id}">${fill(ctx.strings.maxFiles, { n: block.options.maxFiles, mb: block.options.maxSizeMb })}</p>`
  )
}

const signature = (ctx: RenderContext, block: Of<"signature">) =>
  group(
    ctx,
    block,
    html`<div class="signature" data-width="${block.options.width}" data-height="${block.options.height}"><input type="hidden" name="${block.id}"${attr("value", first(ctx, block.id) || undefined)}><p class="nojs-only q-hint">${ctx.strings.noJsSignature}</p></div>`,
    html`<p class="q-hint js-only" id="hint-${block.id}">${ctx.strings.signatureHelp}</p>`,
    `hint-${block.id}`
  )

const consent = (ctx: RenderContext, block: Of<"privacy_consent">) => {
  const o = block.options
  const chosen = first(ctx, block.id)
  const details = html`<dl class="consent" id="consent-${block.id}"><dt>${ctx.strings.purpose}</dt><dd>${o.purpose}</dd><dt>${ctx.strings.itemsCollected}</dt><dd><ul>${o.items.map((i) => html`<li>${i}</li>`)}</ul></dd><dt>${ctx.strings.retention}</dt><dd>${o.retentionPeriod}</dd></dl><p class="q-hint">${o.refusalNotice}</p>`
  const controls =
    o.mode === "agree_or_decline"
      ? html`<ul class="choices" data-kind="radio"><li class="choice"><input type="radio" id="in-${block.id}-y" name="${block.id}" value="y"${chosen === "y" ? html` checked` : ""}><label for="in-${block.id}-y">${ctx.strings.agree}</label></li><li class="choice"><input type="radio" id="in-${block.id}-n" name="${block.id}" value="n"${chosen === "n" ? html` checked` : ""}><label for="in-${block.id}-n">${ctx.strings.decline}</label></li></ul>`
      : html`<ul class="choices" data-kind="checkbox"><li class="choice"><input type="checkbox" id="in-${block.id}-y" name="${block.id}" value="y"${chosen === "y" ? html` checked` : ""}><label for="in-${block.id}-y">${ctx.strings.agree}</label></li></ul>`
  return group(ctx, block, controls, details, `consent-${block.id}`)
}

const safeHref = (href: string): string | undefined => {
  try {
    const url = new URL(href)
    return url.protocol === "https:" || url.protocol === "http:" || url.protocol === "mailto:"
      ? url.href
      : undefined
  } catch {
    return undefined
  }
}

type Run = NonNullable<Of<"statement">["content"]>[number]

const textRun = (run: Run): Html => {
  if ("fieldRef" in run) return html`<span class="ref" data-ref="${run.fieldRef}"></span>`
  let out = html`${run.text}`
  if (run.code === true) out = html`<code>${out}</code>`
  if (run.bold === true) out = html`<strong>${out}</strong>`
  if (run.italic === true) out = html`<em>${out}</em>`
  if (run.underline === true) out = html`<u>${out}</u>`
  if (run.strike === true) out = html`<s>${out}</s>`
  const href = run.href === undefined ? undefined : safeHref(run.href)
  if (href !== undefined)
    out = html`<a href="${href}" rel="noopener noreferrer nofollow" target="_blank">${out}</a>`
  // Colours are applied by the script through the CSSOM (the CSP admits no style attributes).
  return run.color !== undefined || run.bg !== undefined
    ? html`<span class="run"${attr("data-color", run.color)}${attr("data-bg", run.bg)}>${out}</span>`
    : out
}

const statement = (block: Of<"statement">) => {
  const runs = block.content ?? []
  const heading = block.level === undefined ? "p" : `h${block.level + 1}`
  const cls = [
    "statement",
    block.align === undefined ? "" : `align-${block.align}`,
    block.variant === undefined ? "" : `variant-${block.variant}`
  ]
    .filter(Boolean)
    .join(" ")
  let body: Html
  if (block.listStyle !== undefined) {
    // A list statement: its runs split into items at line breaks.
    const items: Array<Array<Run>> = [[]]
    for (const run of runs) {
      if ("fieldRef" in run) {
        items[items.length - 1]?.push(run)
        continue
      }
      const lines = run.text.split("\n")
      lines.forEach((line, i) => {
        if (i > 0) items.push([])
        if (line !== "") items[items.length - 1]?.push({ ...run, text: line })
      })
    }
    const tag = block.listStyle === "number" ? "ol" : "ul"
    body = html`${unsafeRaw(`<${tag}>`)}${items.filter((i) => i.length > 0).map((i) => html`<li>${i.map(textRun)}</li>`)}${unsafeRaw(`</${tag}>`)}`
  } else {
    body = runs.length === 0 ? html`` : html`<div class="statement-body">${runs.map(textRun)}</div>`
  }
  const title =
    block.label === ""
      ? ""
      : html`${unsafeRaw(`<${heading} class="statement-title" id="lbl-${escapeHtml(block.id)}">`)}${block.label}${unsafeRaw(`</${heading}>`)}`
  return html`<div class="${cls}">${title}${description(block)}${body}</div>`
}

/** A non-question block's own label, as a plain heading-like line above its content. */
const blockTitle = (block: Block) =>
  block.label === "" ? "" : html`<p class="q-label" id="lbl-${block.id}">${block.label}</p>`

// The label and description come above the figure: they introduce it, as a question's do.
const image = (ctx: RenderContext, block: Of<"image">): Html | undefined => {
  const intro = html`${blockTitle(block)}${description(block)}`
  if (block.imageKey === undefined) return block.label === "" && !block.description ? undefined : intro
  return html`${intro}<figure class="image width-${block.width}"><img src="${ctx.imageUrl(block.imageKey)}" alt="${block.imageAlt}"${attr("width", block.imageWidth)}${attr("height", block.imageHeight)} loading="lazy">${block.caption === undefined ? "" : html`<figcaption>${block.caption}</figcaption>`}</figure>`
}

/** A divider: a plain rule, or with a label a titled separator (the label between two rules). */
const divider = (block: Of<"divider">) =>
  block.label === ""
    ? html`<hr>${description(block)}`
    : html`<div class="divider-titled"><h2 class="divider-title" id="lbl-${block.id}">${block.label}</h2></div>${description(block)}`

/** Whether a page_break or divider has words to show (a title or a description). */
export const hasHeading = (block: Block): boolean =>
  (block.type === "page_break" || block.type === "divider") && (block.label !== "" || !!block.description)

/** A page_break's label and description: the heading of the page (or document section) it opens. */
export const pageHeading = (block: Block): Html =>
  html`${block.label === "" ? "" : html`<h2 class="section-title" id="lbl-${block.id}">${block.label}</h2>`}${description(block)}`

const calculated = (block: Of<"calculated_field">) =>
  html`<div class="calc"><span class="q-label" id="lbl-${block.id}">${block.label}</span>${description(block)}<output class="calc-value" id="out-${block.id}" aria-labelledby="lbl-${block.id}" aria-live="polite" data-precision="${block.options.precision ?? ""}">–</output></div>`

/** One block's inner HTML, or undefined for blocks that render nothing (hidden fields). */
export const blockBody = (ctx: RenderContext, block: Block): Html | undefined => {
  switch (block.type) {
    case "short_text": {
      const mode = block.options.inputMode
      return single(
        ctx,
        block,
        textInput(ctx, block, (mode && INPUT_TYPES[mode]) ?? "text", {
          placeholder: block.options.placeholder,
          maxLength: block.options.maxLength,
          minLength: block.options.minLength,
          inputMode: mode,
          autoComplete: block.options.autoComplete
        })
      )
    }
    case "long_text":
      return single(
        ctx,
        block,
        html`<textarea id="in-${block.id}" name="${block.id}" rows="4"${attr("placeholder", block.options.placeholder)}${attr("maxlength", block.options.maxLength)}${attr("minlength", block.options.minLength)}${describedBy(block)}${requiredAria(block)}${invalid(ctx, block)}>${first(ctx, block.id)}</textarea>`
      )
    case "email":
      return single(
        ctx,
        block,
        textInput(ctx, block, "email", {
          placeholder: block.options.placeholder,
          autoComplete: "email",
          maxLength: 320
        })
      )
    case "number": {
      const o = block.options
      const step = o.step ?? (o.integer === true ? 1 : o.decimals !== undefined ? 10 ** -o.decimals : "any")
      const input = textInput(ctx, block, "number", {
        placeholder: o.placeholder,
        min: o.min,
        max: o.max,
        step,
        inputMode: o.integer === true ? "numeric" : "decimal"
      })
      return single(
        ctx,
        block,
        o.prefix === undefined && o.suffix === undefined
          ? input
          : html`<span class="affixed">${o.prefix === undefined ? "" : html`<span class="affix">${o.prefix}</span>`}${input}${o.suffix === undefined ? "" : html`<span class="affix">${o.suffix}</span>`}</span>`
      )
    }
    case "date":
      return single(
        ctx,
        block,
        textInput(ctx, block, "date", { min: block.options.min, max: block.options.max })
      )
    case "time":
      return single(
        ctx,
        block,
        textInput(ctx, block, "time", { min: block.options.min, max: block.options.max })
      )
    case "datetime":
      return single(
        ctx,
        block,
        textInput(ctx, block, "datetime-local", {
          min: block.options.min?.replace(/Z$/, "").slice(0, 16),
          max: block.options.max?.replace(/Z$/, "").slice(0, 16)
        })
      )
    case "date_range":
      return dateRange(ctx, block)
    case "multiple_choice":
      return group(ctx, block, choiceList(ctx, block))
    case "checkboxes": {
      const hint = selectionHint(ctx, block)
      return group(
        ctx,
        block,
        choiceList(ctx, block),
        hint,
        hint === undefined ? undefined : `hint-${block.id}`
      )
    }
    case "dropdown":
      return dropdown(ctx, block)
    case "ranking":
      return ranking(ctx, block)
    case "rating":
      return rating(ctx, block)
    case "address":
      return address(ctx, block)
    case "file_upload":
      return fileUpload(ctx, block)
    case "signature":
      return signature(ctx, block)
    case "privacy_consent":
      return consent(ctx, block)
    case "statement":
      return statement(block)
    case "image":
      return image(ctx, block)
    case "divider":
      return divider(block)
    case "page_break":
      return hasHeading(block) ? pageHeading(block) : html``
    case "calculated_field":
      return calculated(block)
    case "hidden_field":
      return undefined
  }
}

/** The rows of one matrix: choice blocks sharing a `matrixGroupId`, shown as one grid. */
// The first row carries the grid's label and description (legend); each other row's description
// shows under its own row label.
export const matrixBody = (ctx: RenderContext, rows: ReadonlyArray<ChoiceRow>): Html => {
  const head = rows[0] as ChoiceRow
  const columns = head.options.choices
  const groupId = head.options.matrixGroupId ?? head.id
  const n = ctx.numbers?.get(groupId)
  return html`<fieldset class="q-group matrix-group"${attr("aria-describedby", head.description ? `desc-${head.id}` : undefined)}><legend class="q-label">${n === undefined ? "" : html`<span class="q-num">${n}.</span> `}${head.label}</legend>${description(head)}<div class="matrix-scroll"><table class="matrix"><thead><tr><td></td>${columns.map((c, i) => html`<th scope="col" id="col-${groupId}-${i}">${choiceImage(ctx, c)}${c.label}</th>`)}</tr></thead><tbody>${rows.map(
    (row) => {
      const chosen = new Set(all(ctx, row.id))
      const type = row.type === "multiple_choice" ? "radio" : "checkbox"
      const rowDesc = row !== head && row.description ? `rdesc-${row.id}` : undefined
      return html`<tr class="matrix-row" data-block="${row.id}" data-type="${row.type}"${row.required ? html` data-required` : ""}><th scope="row"><span id="lbl-${row.id}">${row.options.rowLabel ?? row.label}${requiredMark(ctx, row)}</span>${rowDesc === undefined ? "" : html`<span class="row-desc" id="${rowDesc}">${row.description}</span>`}</th>${columns.map((c, i) => html`<td><input type="${type}" name="${row.id}" value="${c.id}" aria-labelledby="lbl-${row.id} col-${groupId}-${i}"${attr("aria-describedby", rowDesc)}${chosen.has(c.id) ? html` checked` : ""}${invalid(ctx, row)}></td>`)}</tr><tr class="matrix-error" data-for="${row.id}"><td colspan="${columns.length + 1}">${errorText(ctx, row)}</td></tr>`
    }
  )}</tbody></table></div></fieldset>`
}

export type Section =
  | { readonly kind: "block"; readonly block: Block }
  | { readonly kind: "matrix"; readonly id: string; readonly rows: ReadonlyArray<ChoiceRow> }

/** The definition's blocks in order, with each matrix's rows gathered at its first row's place. */
export const sectionsOf = (definition: FormDefinition): ReadonlyArray<Section> => {
  const matrices = new Map<string, Array<ChoiceRow>>()
  const out: Array<Section> = []
  for (const block of definition.blocks) {
    const groupId =
      block.type === "multiple_choice" || block.type === "checkboxes"
        ? block.options.matrixGroupId
        : undefined
    if (groupId === undefined || (block.type !== "multiple_choice" && block.type !== "checkboxes")) {
      out.push({ kind: "block", block })
      continue
    }
    const rows = matrices.get(groupId)
    if (rows !== undefined) {
      rows.push(block)
      continue
    }
    const fresh: Array<ChoiceRow> = [block]
    matrices.set(groupId, fresh)
    out.push({ kind: "matrix", id: groupId, rows: fresh })
  }
  return out
}
