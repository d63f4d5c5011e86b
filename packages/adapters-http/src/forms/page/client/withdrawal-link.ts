// The withdrawal link of a research form's completion screen (classic and interview pages): the
// server renders it hidden, and the script fills in the path the completion answered.

/** Shows the completion screen's withdrawal link at `path`; nothing when there is none to show. */
export const showWithdrawalLink = (done: ParentNode | null, path: string | undefined): void => {
  const withdraw = done?.querySelector<HTMLElement>(".withdraw")
  const link = withdraw?.querySelector<HTMLAnchorElement>("a.withdraw-link")
  if (path === undefined || withdraw === null || withdraw === undefined) return
  if (link === null || link === undefined) return
  link.href = path
  withdraw.hidden = false
}
