// The audit log page: newest first, 50 a page, "older" following the last event's id.
import type { AuditEventRecord } from "@folio/domain"
import { type Html, html } from "../../shared/html.js"
import { type PageChrome, renderDocument } from "../layout.js"
import { dateTime } from "./format.js"

export const AUDIT_PAGE_SIZE = 50

const genericDetails = (details: AuditEventRecord["details"]) =>
  Object.entries(details)
    .map(([k, v]) => `${k}: ${v === null ? "none" : String(v)}`)
    .join(", ")

/**
 * What an OAuth app was allowed or lost, said in words: its name (`client`), its id when the event
 * carries it and it differs, the scopes, then the other facts.
 */
const appDetails = (details: AuditEventRecord["details"]) => {
  const { client, clientId, scopes, ...rest } = details
  const name = typeof client === "string" && client !== "" ? client : String(clientId ?? "unknown")
  return [
    `app: ${name}`,
    ...(typeof clientId === "string" && clientId !== name ? [`client id: ${clientId}`] : []),
    `scopes: ${typeof scopes === "string" && scopes !== "" ? scopes.split(",").join(" ") : "none"}`,
    ...(Object.keys(rest).length === 0 ? [] : [genericDetails(rest)])
  ].join(", ")
}

const detailsOf = (event: AuditEventRecord) =>
  event.action === "app.authorized" || event.action === "app.revoked"
    ? appDetails(event.details)
    : genericDetails(event.details)

export const renderAuditPage = (
  chrome: PageChrome,
  view: { readonly events: ReadonlyArray<AuditEventRecord>; readonly older: string | undefined }
): Html =>
  renderDocument(
    chrome,
    html`<h1>Audit log</h1>
<p class="hint">Kept for 180 days.</p>
${
  view.events.length === 0
    ? html`<p>Nothing recorded yet.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">Target</th><th scope="col">Address</th><th scope="col">Details</th></tr></thead>
<tbody>${view.events.map(
        (e) =>
          html`<tr><td class="when">${dateTime(e.at)}</td><td>${e.action}</td><td>${e.actorEmail ?? "system"}</td><td>${
            e.target ?? ""
          }</td><td>${e.ip ?? ""}</td><td>${detailsOf(e)}</td></tr>`
      )}</tbody></table></div>`
}
${view.older === undefined ? "" : html`<p><a href="/console/audit?before=${encodeURIComponent(view.older)}">Older events</a></p>`}`
  )
