'use client'
import type { ForwardedRef } from 'react'
import { cx, withRef } from './classNames.js'
import { issueFor, issueMessage } from './issues.js'
import { useCoreMessages } from './useMessages.js'

export interface FieldErrorProps {
  /** The error of the last run; only a validation error with a problem for `field` shows anything. */
  error: unknown
  /** The input field, as in `ValidationIssue.field`, e.g. `city` or `file`. */
  field: string
  /** Also give it to the control's `aria-describedby`, so the problem is read with the field. */
  id: string
  className?: string
}

/**
 * A field's validation problem, for showing under the field (class `ct-field-error`).
 * Renders nothing while the field is fine.
 *
 * @example
 * <input id="city" aria-describedby="city-error" />
 * <FieldError error={error} field="city" id="city-error" />
 */
export const FieldError = withRef(function FieldError(
  { error, field, id, className }: FieldErrorProps,
  ref: ForwardedRef<HTMLParagraphElement>,
) {
  const messages = useCoreMessages()
  const issue = issueFor(error, field)
  if (!issue) return null
  return (
    <p ref={ref} id={id} className={cx('ct-field-error', className)}>
      {issueMessage(messages, issue)}
    </p>
  )
})
