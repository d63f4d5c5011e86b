// The members page: who belongs to the workspace and with which role, the pending invitations, the
// invite form, and (for owners and admins) role changes and removal. The buttons shown are the
// ones the viewer's role may use; the use cases check again.
import { type MemberView, mayRun, type OneTimeTokenRecord, ROLES, type Role } from "@folio/domain"
import { attr, type Html, html } from "../../shared/html.js"
import { alertBox, csrfField, noticeBox, type PageChrome, postButton, renderDocument } from "../layout.js"
import { dateOnly, dateTime } from "./format.js"

export interface MembersView {
  readonly role: Role
  readonly userId: string
  readonly members: ReadonlyArray<MemberView>
  readonly invitations: ReadonlyArray<OneTimeTokenRecord>
  /** An invitation just made: whether it was e-mailed, and the link when it was not. */
  readonly invited?: { readonly email: string; readonly mailed: boolean; readonly url: string }
  readonly error?: string | undefined
  readonly notice?: string | undefined
}

/** The roles the viewer may give: only owners give (or take) the owner role. */
const grantable = (role: Role): ReadonlyArray<Role> =>
  role === "owner" ? ROLES : ROLES.filter((r) => r !== "owner")

const roleForm = (view: MembersView, chrome: PageChrome, member: MemberView) => {
  const mayChange =
    mayRun(view.role, "changeRole") &&
    (view.role === "owner" || member.role !== "owner") &&
    member.userId !== view.userId
  if (!mayChange) return html`${member.role}`
  const id = `role-${member.userId}`
  return html`<form method="post" action="/console/members/${encodeURIComponent(member.userId)}/role" class="inline">${csrfField(chrome.csrf)}
<label for="${id}" class="skip">Role of ${member.email}</label>
<select id="${id}" name="role">${grantable(view.role).map(
    (r) => html`<option value="${r}"${attr("selected", r === member.role && "selected")}>${r}</option>`
  )}</select>
<button type="submit" class="secondary" aria-label="Save the role of ${member.email}">Save</button></form>`
}

const removeButton = (view: MembersView, chrome: PageChrome, member: MemberView) =>
  mayRun(view.role, "removeMember") &&
  member.userId !== view.userId &&
  (view.role === "owner" || member.role !== "owner")
    ? postButton(`/console/members/${encodeURIComponent(member.userId)}/remove`, "Remove", chrome.csrf, {
        kind: "danger",
        ariaLabel: `Remove ${member.email}`
      })
    : ""

const invitedPanel = (invited: NonNullable<MembersView["invited"]>) =>
  invited.mailed
    ? html`<p class="notice" role="status">Invitation e-mailed to ${invited.email}.</p>`
    : html`<section class="notice" role="status"><p>This server sends no e-mail: give ${invited.email} this link yourself. It is shown only once and works for 7 days.</p>
<div class="secret"><code id="invitation-link">${invited.url}</code>
<button type="button" class="secondary" data-copy="invitation-link" hidden>Copy</button></div></section>`

export const renderMembersPage = (chrome: PageChrome, view: MembersView): Html =>
  renderDocument(
    chrome,
    html`<h1>Members</h1>
${noticeBox(view.notice)}${alertBox(view.error)}
${view.invited === undefined ? "" : invitedPanel(view.invited)}
<div class="table-wrap"><table>
<thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
<tbody>${view.members.map(
      (m) =>
        html`<tr><td>${m.displayName}</td><td>${m.email}</td><td>${roleForm(view, chrome, m)}</td><td>${dateOnly(
          m.createdAt
        )}</td><td>${removeButton(view, chrome, m)}</td></tr>`
    )}</tbody></table></div>
${
  mayRun(view.role, "inviteMember")
    ? html`<h2>Pending invitations</h2>
${
  view.invitations.length === 0
    ? html`<p>None.</p>`
    : html`<div class="table-wrap"><table><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Expires</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
<tbody>${view.invitations.map(
        (i) =>
          html`<tr><td>${i.email ?? ""}</td><td>${i.role ?? ""}</td><td>${dateTime(i.expiresAt)}</td><td>${postButton(
            `/console/invitations/${encodeURIComponent(i.id)}/revoke`,
            "Revoke",
            chrome.csrf,
            { kind: "danger", ariaLabel: `Revoke the invitation of ${i.email ?? ""}` }
          )}</td></tr>`
      )}</tbody></table></div>`
}
<h2>Invite someone</h2>
<form method="post" action="/console/members/invite" class="stack">${csrfField(chrome.csrf)}
<div><label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required></div>
<div><label for="invite-role">Role</label><select id="invite-role" name="role">${grantable(view.role).map(
        (r) => html`<option value="${r}"${attr("selected", r === "member" && "selected")}>${r}</option>`
      )}</select></div>
<div><button type="submit">Invite</button></div></form>`
    : ""
}
<h2>Leave this workspace</h2>
<p>You lose access to its keys and settings. A workspace keeps at least one owner.</p>
${postButton("/console/leave", "Leave workspace", chrome.csrf, { kind: "danger" })}`
  )
