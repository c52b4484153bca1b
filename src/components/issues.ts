import { isToolsError, type InputField, type ValidationIssue } from '../react/index.js'
import type { CoreMessages } from '../react/internal.js'
import { formatFor } from './format.js'
import { readJsonObject, type TextPosition } from './jsonObject.js'

/** The validation problem `error` reports for `field`, if any. */
export function issueFor(error: unknown, field: string): ValidationIssue | undefined {
  if (!isToolsError(error) || error.kind !== 'validation') return undefined
  return error.issues.find((issue) => issue.field === field)
}

/**
 * The name a person knows a field by: its label for the fields the spec names, the raw name
 * for the others (a tool's own options), none for the input as a whole.
 */
export function fieldLabel(messages: CoreMessages, field: string): string | undefined {
  if (field === '' || field === 'input') return undefined
  return Object.hasOwn(messages.fields, field) ? messages.fields[field as InputField] : field
}

/** A JSON field's problem: `not-an-object`, with where its text stops parsing when it does not. */
export interface JsonFieldIssue extends ValidationIssue {
  code: 'not-an-object'
  syntaxAt?: TextPosition
}

/**
 * The problem of the JSON field `field` holding `text`, or none when it holds an object (or
 * nothing). Where text that does not parse stops is found by a module loaded only then.
 */
export async function jsonFieldIssue(messages: CoreMessages, field: string, text: string): Promise<JsonFieldIssue | undefined> {
  const reading = readJsonObject(text)
  if (reading.kind === 'object') return undefined
  const issue: JsonFieldIssue = { field, code: 'not-an-object', message: messages.validation['not-an-object'] }
  if (reading.kind === 'syntax') issue.syntaxAt = (await import('./jsonSyntax.js')).syntaxErrorAt(text)
  return issue
}

/** The problem in the person's language; the client's English for a code the messages lack. */
export function issueMessage(messages: CoreMessages, issue: ValidationIssue): string {
  const at = (issue as JsonFieldIssue).syntaxAt
  if (at) {
    const { number } = formatFor(messages.locale)
    return messages.validation.notJson(number(at.line), number(at.column))
  }
  return messages.validation[issue.code] ?? issue.message
}
