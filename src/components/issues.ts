import { isToolsError, type InputField, type Messages, type ValidationIssue } from '../react/index.js'

/** The validation problem `error` reports for `field`, if any. */
export function issueFor(error: unknown, field: string): ValidationIssue | undefined {
  if (!isToolsError(error) || error.kind !== 'validation') return undefined
  return error.issues.find((issue) => issue.field === field)
}

/**
 * The name a person knows a field by: its label for the fields the spec names, the raw name
 * for the others (a tool's own options), none for the input as a whole.
 */
export function fieldLabel(messages: Messages, field: string): string | undefined {
  if (field === '' || field === 'input') return undefined
  return Object.hasOwn(messages.fields, field) ? messages.fields[field as InputField] : field
}

/** The problem in the person's language; the client's English for a code the messages lack. */
export function issueMessage(messages: Messages, issue: ValidationIssue): string {
  return messages.validation[issue.code] ?? issue.message
}
