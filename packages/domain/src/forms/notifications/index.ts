// Notification e-mails of completed responses: the rules over settings, the messages, and the job
// that sends one through the Mailer port (docs/decisions/0031-notification-email.md).
export * from "./email-job.js"
export * from "./messages.js"
export * from "./rules.js"
