'use client'
import { forwardRef } from 'react'
import { useUsage } from '../react/index.js'
import { cx, type RootProps } from './classNames.js'
import { useFormat } from './format.js'
import { useMessages } from './useMessages.js'

/** The root's DOM props (`id`, `style`, `aria-*`, `data-*`, `className`) and a ref: the meter takes no props of its own. */
export type UsageMeterProps = RootProps<HTMLDivElement>

/**
 * What the signed-in person has left under the proxy's spend cap ("12 of 100 runs left"), as a
 * meter (`role="meter"`, the runs left of the limit) and the time the count starts again, in the
 * person's locale. Up to date after each of their runs and at the reset (`useUsage`). Renders
 * nothing where there is no per-person cap: with the key in the page, behind a proxy with no
 * `limits`, and until the figures have arrived.
 *
 * Classes: `ct-usage-meter`, parts `__text`, `__bar`, `__fill`, `__reset`. `data-state`:
 * `available` | `empty` (no runs left).
 *
 * @example
 * <ToolsProvider baseUrl="/api/tools" user={session.userId}>
 *   <UsageMeter />
 * </ToolsProvider>
 */
export const UsageMeter = forwardRef<HTMLDivElement, UsageMeterProps>(function UsageMeter({ className, ...rest }, ref) {
  const { data } = useUsage()
  const messages = useMessages()
  const format = useFormat()
  if (!data || data.limit === null) return null
  const { limit } = data
  const left = Math.max(0, limit - data.used)
  const text = messages.usage.left(format.number(left), format.number(limit))
  return (
    <div {...rest} ref={ref} className={cx('ct-usage-meter', className)} data-state={left > 0 ? 'available' : 'empty'}>
      <p className="ct-usage-meter__text">{text}</p>
      <div
        className="ct-usage-meter__bar"
        role="meter"
        aria-label={messages.usage.label}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={left}
        aria-valuetext={text}
      >
        <span className="ct-usage-meter__fill" style={{ width: limit > 0 ? `${(100 * left) / limit}%` : 0 }} />
      </div>
      {data.resetAt && (
        <p className="ct-usage-meter__reset" suppressHydrationWarning>
          {messages.usage.resets(format.dateTime(Date.parse(data.resetAt)))}
        </p>
      )}
    </div>
  )
})
