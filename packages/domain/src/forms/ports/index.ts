export * from "./forms.js"
export * from "./insights.js"
export * from "./responses.js"
export * from "./stored-documents.js"
