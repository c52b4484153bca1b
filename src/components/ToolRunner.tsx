'use client'
import { useEffect, useId, useRef, useState, type ChangeEvent, type ForwardedRef, type FormEvent } from 'react'
import {
  getTool,
  inputFields,
  isBusy,
  isToolsError,
  ToolsError,
  useTool,
  useToolsContext,
  type FileToolId,
  type InputField,
  type InputFieldSpec,
  type Tool,
  type ToolId,
  type ToolInput,
  type ToolResult,
  type UseToolResult,
  type ValidationIssue,
} from '../react/index.js'
import { loadChecks } from '../react/internal.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { ErrorNotice } from './ErrorNotice.js'
import { FieldError } from './FieldError.js'
import { jsonFieldIssue } from './issues.js'
import { readJsonObject } from './jsonObject.js'
import { submitAction } from './remedy.js'
import { useHeldDuringPress } from './useHeldDuringPress.js'
import { useWaitOver } from './useWaitOver.js'
import { RunOutcome } from './RunOutcome.js'
import { UploadForm, type UploadFormProps } from './UploadForm.js'
import { WaitNotice } from './WaitNotice.js'
import { useCoreMessages } from './useMessages.js'

export interface ToolRunnerProps<T extends ToolId> extends RootProps {
  tool: T
  /** Values to prefill: named fields fill their inputs, any others the options field. */
  input?: Partial<ToolInput<T>>
  /** Called once per successful run. */
  onResult?: (result: ToolResult<T>) => void
  /** A file tool's accepted types, as `<UploadForm accept>`. Default: the catalogue row's. */
  accept?: UploadFormProps['accept']
  /** A file tool's largest file in bytes, as `<UploadForm maxBytes>`. Default 20 MB, 200 MB for video. */
  maxBytes?: number
  /** @deprecated The old name of `maxBytes`, still honoured when `maxBytes` is not given. */
  maxSize?: number
  /**
   * The level of its title's heading (default 2, an `<h2>`), or `false` for no title and no
   * description: for a page that titles the tool itself. The section is then named by the tool's title.
   */
  heading?: 1 | 2 | 3 | 4 | 5 | 6 | false
}

/** The JSON field for body fields the spec leaves open; its text is kept among the values. */
const OPTIONS = 'options'

type Values = Record<string, string>

/** A control of the form: one of the tool's named fields, or the options field. */
interface Control {
  name: InputField | typeof OPTIONS
  type: InputFieldSpec['type'] | 'json'
  required: boolean
}

function initialValues(fields: InputFieldSpec[], input: Record<string, unknown>): Values {
  const values: Values = {}
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input)) {
    if (fields.some((field) => field.name === key)) {
      if (value !== undefined && !(value instanceof Blob)) values[key] = String(value)
    } else rest[key] = value
  }
  if (Object.keys(rest).length) values[OPTIONS] = JSON.stringify(rest, null, 2)
  return values
}

/** The input the form holds, or `undefined` when the options text is not a JSON object. */
function readForm(fields: InputFieldSpec[], values: Values): Record<string, unknown> | undefined {
  const options = readJsonObject(values[OPTIONS] ?? '')
  if (options.kind !== 'object') return undefined
  const input: Record<string, unknown> = { ...options.value }
  for (const field of fields) {
    const raw = values[field.name]?.trim() ?? ''
    if (field.type === 'file' || raw === '') continue
    input[field.name] = field.type === 'number' ? Number(raw) : raw
  }
  return input
}

/** The options field's problem: not JSON (and where), or JSON but not an object. */
function useOptionsIssues(): (shown: Values) => Promise<ValidationIssue[]> {
  const messages = useCoreMessages()
  return async (shown) => [await jsonFieldIssue(messages, OPTIONS, shown[OPTIONS] ?? '')].filter((issue) => issue !== undefined)
}

/**
 * Inline validation: the client's own check, shown for the fields a person has left. Only the
 * latest check is shown: an earlier one may answer after it. An answer that lands while Run is
 * pressed is shown after the click: shown between press and release, it would move the button
 * under the pointer and lose the click.
 */
function useInlineChecks<T extends ToolId>(tool: T, fields: InputFieldSpec[], values: Values) {
  const { client } = useToolsContext()
  const optionsIssues = useOptionsIssues()
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const [localIssues, setLocalIssues] = useState<ValidationIssue[]>([])
  const checks = useRef(0)
  const held = useHeldDuringPress()
  const check = async (visited: ReadonlySet<string>, shown: Values) => {
    const id = ++checks.current
    const input = readForm(fields, shown)
    const issues = input ? await client.validate(tool, input as ToolInput<T>) : await optionsIssues(shown)
    // Still the latest once the press ends: a submit in its click checks everything itself.
    held.whenReleased(() => id === checks.current && setLocalIssues(issues.filter((issue) => visited.has(issue.field))))
  }
  const leave = (field: string) => {
    const visited = new Set(touched).add(field)
    setTouched(visited)
    void check(visited, values)
  }
  /** A submit checks every field: no earlier check's answer may show after it, held or not. */
  const submitted = (formOk: boolean) => {
    setTouched(new Set([...fields.map((field) => field.name), OPTIONS]))
    const id = ++checks.current
    if (formOk) setLocalIssues([])
    else void optionsIssues(values).then((issues) => id === checks.current && setLocalIssues(issues))
  }
  return { touched, localIssues, check, leave, press: held.press, submitted }
}

interface FieldControlsProps {
  controls: Control[]
  values: Values
  setValues: (values: Values) => void
  inline: ReturnType<typeof useInlineChecks>
  shownError: ToolsError | null
  busy: boolean
  listing: boolean
  idOf: (field: string) => string
  /** The id of the line saying why the fields are locked, while they are (a file tool's upload form says it itself). */
  reasonId?: string
}

/** One control: its label, the input (a JSON textarea for options), a hint, its problem. */
function FieldControl({ control, props }: { control: Control; props: FieldControlsProps }) {
  const { name, type, required } = control
  const { values, setValues, inline, shownError, busy, listing, idOf, reasonId } = props
  const messages = useCoreMessages()
  const id = idOf(name)
  const hintId = name === OPTIONS ? `${id}-hint` : listing && !required ? idOf('listing-hint') : undefined
  const common = {
    id,
    name,
    value: values[name] ?? '',
    required,
    disabled: busy,
    'aria-invalid': Boolean(shownError?.issues.some((issue) => issue.field === name)),
    'aria-describedby': cx(`${id}-error`, hintId, busy && reasonId),
    onBlur: () => inline.leave(name),
    // A person in a field is about to run: the input checks load now if idle time has not brought
    // them yet, so a field's check as it is fixed never waits for them (and never moves the button late).
    onFocus: () => void loadChecks().catch(() => undefined),
  }
  // A field already checked is checked again as it is fixed: its problem goes while the
  // person types, not when they leave it (when the button below would jump).
  const change = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const next = { ...values, [name]: event.target.value }
    setValues(next)
    if (inline.touched.has(name)) void inline.check(inline.touched, next)
  }
  return (
    <div className="ct-field">
      <label className="ct-label" htmlFor={id}>
        {messages.fields[name]}
        {!required && <span className="ct-label__optional"> {messages.fields.optional}</span>}
      </label>
      {/* With no stylesheet the label sits above its field, not run into it; the theme's grid does it otherwise. */}
      <br />
      {type === 'json' ? (
        <textarea {...common} className="ct-input ct-input--code" rows={3} spellCheck={false} onChange={change} />
      ) : (
        <input
          {...common}
          className="ct-input"
          type={type === 'number' ? 'number' : 'text'}
          step={type === 'number' ? 'any' : undefined}
          inputMode={type === 'number' ? 'decimal' : undefined}
          onChange={change}
        />
      )}
      {name === OPTIONS && (
        <p className="ct-hint" id={hintId}>
          {messages.fields.optionsHint}
        </p>
      )}
      <FieldError error={shownError} field={name} id={`${id}-error`} />
    </div>
  )
}

function FieldControls(props: FieldControlsProps) {
  const messages = useCoreMessages()
  return (
    <div className="ct-tool-runner__fields">
      {props.controls.map((control) => (
        <FieldControl key={control.name} control={control} props={props} />
      ))}
      {props.listing && (
        <p className="ct-hint" id={props.idOf('listing-hint')}>
          {messages.fields.listingHint}
        </p>
      )}
    </div>
  )
}

/** The validation problems to show: the run's own, else those of the inline checks. */
function shownErrorOf(error: unknown, localIssues: ValidationIssue[]): ToolsError | null {
  if (isToolsError(error) && error.kind === 'validation') return error
  return localIssues.length ? new ToolsError('validation', '', { issues: localIssues }) : null
}

/** The form's button; while a run is under way, disabled with the reason beside it. */
function RunButton({ label, busy, reasonId }: { label: string; busy: boolean; reasonId: string }) {
  const messages = useCoreMessages()
  return (
    <div className="ct-tool-runner__actions">
      <button type="submit" className="ct-button" disabled={busy} aria-describedby={busy ? reasonId : undefined}>
        {label}
      </button>
      {busy && (
        <p className="ct-hint ct-tool-runner__reason" id={reasonId}>
          {messages.disabled.running}
        </p>
      )}
    </div>
  )
}

/** The tool's title and description, unless the page titles it (`heading={false}`). */
function RunnerHeader({ tool, heading, titleId }: { tool: ToolId; heading: ToolRunnerProps<ToolId>['heading']; titleId: string }) {
  const messages = useCoreMessages()
  if (!heading) return null
  const Heading = `h${heading}` as const
  return (
    <header className="ct-tool-runner__header">
      <Heading className="ct-tool-runner__title" id={titleId}>
        {messages.tools[tool].title}
      </Heading>
      <p className="ct-tool-runner__description">{messages.tools[tool].description}</p>
    </header>
  )
}

/** Each result is reported once; focus goes to the notice when something failed (to the result in RunOutcome). */
function useReport<T extends ToolId>(hook: UseToolResult<T>, onResult: ToolRunnerProps<T>['onResult']) {
  const notice = useRef<HTMLDivElement>(null)
  const reported = useRef<unknown>(null)
  const { phase, result, error } = hook
  useEffect(() => {
    if (phase === 'succeeded' && result && reported.current !== result) {
      reported.current = result
      onResult?.(result)
    } else if (phase === 'failed' && error && reported.current !== error) {
      reported.current = error
      notice.current?.focus()
    }
  }, [phase, result, error, onResult])
  return notice
}

/**
 * The whole flow of one tool: its fields (or a file drop), inline validation, submit, the job's
 * progress, the result with its files, and errors in place. One button goes on from each state:
 * "Run", then "Run again" (with the fields as they are); after a failure, the notice's "Try
 * again" where repeating can help, the form's "Run" where other input can, none where neither can.
 * Fields come from the catalogue: the spec's named fields, plus a JSON options field for tools
 * whose body fields the spec leaves open.
 *
 * Classes: `ct-tool-runner`, parts `__header`, `__title`, `__description`, `__form`, `__fields`,
 * `__status`, `__actions`, `__reason` (why the button is disabled). `data-state` is the run's phase.
 *
 * @example
 * <ToolRunner tool="valuation/rent" input={{ city: 'Kazan' }} />
 */
export const ToolRunner = withRef(function ToolRunner<T extends ToolId>(
  { tool, input, onResult, accept, maxBytes, maxSize, heading = 2, className, ...root }: ToolRunnerProps<T>,
  ref: ForwardedRef<HTMLElement>,
) {
  const { client } = useToolsContext()
  const messages = useCoreMessages()
  const hook = useTool(tool)
  const row: Tool = getTool(tool)
  const fields = inputFields(tool)
  const named = fields.filter((field) => field.type !== 'file')
  const isFileTool = row.body === 'multipart'
  const baseId = useId()
  const idOf = (field: string) => `${baseId}-${field}`
  const [values, setValues] = useState(() => initialValues(fields, (input ?? {}) as Record<string, unknown>))
  const inline = useInlineChecks(tool, fields, values)
  const notice = useReport(hook, onResult)
  const { phase, error, job } = hook
  const busy = isBusy(phase)
  // Once the cap that refused the run resets, the form runs again and its notice is done.
  const waitOver = useWaitOver(error, client.interpret)
  const action = submitAction(phase, error, client.interpret, waitOver)
  const formInput = readForm(fields, values)
  const shownError = shownErrorOf(error, inline.localIssues)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    // Enter in a lone field submits even with the button gone: the notice's "Try again" is the way on.
    if (busy || !action) return
    inline.submitted(Boolean(formInput))
    if (formInput) hook.run(formInput as ToolInput<T>)
  }

  const fieldControls = (
    <FieldControls
      controls={named.length ? named : [{ name: OPTIONS, type: 'json', required: false }]}
      {...{ values, setValues, inline, shownError, busy, idOf }}
      listing={Boolean('listing' in row && row.listing)}
      reasonId={isFileTool || !action ? undefined : idOf('reason')}
    />
  )
  // The upload form shows its own errors; the job's failure is told by its progress.
  const showNotice = error && !isFileTool && !waitOver && !(job && error.kind === 'job-failed')

  return (
    <section
      aria-labelledby={heading ? idOf('title') : undefined}
      aria-label={heading ? undefined : messages.tools[tool].title}
      {...root}
      ref={ref}
      className={cx('ct-tool-runner', className)}
      data-state={phase}
    >
      <RunnerHeader tool={tool} heading={heading} titleId={idOf('title')} />
      {isFileTool ? (
        <UploadForm
          tool={tool as FileToolId}
          state={hook as unknown as UseToolResult<FileToolId>}
          options={formInput}
          accept={accept}
          maxBytes={maxBytes ?? maxSize}
          className="ct-tool-runner__form"
        >
          {named.length > 0 && fieldControls}
        </UploadForm>
      ) : (
        <form className="ct-tool-runner__form" onSubmit={submit} onPointerDown={inline.press} noValidate>
          {fieldControls}
          {action && <RunButton label={messages.runner[action]} busy={busy} reasonId={idOf('reason')} />}
        </form>
      )}
      <div className="ct-tool-runner__status" role="status">
        {phase === 'submitting' && !isFileTool ? messages.phase.submitting : ''}
      </div>
      {/* The upload form shows a file tool's waits. */}
      {!isFileTool && <WaitNotice waiting={hook.waiting} className="ct-tool-runner__wait" />}
      {showNotice && <ErrorNotice ref={notice} error={error} onRetry={hook.retry} fieldId={idOf} />}
      <RunOutcome state={hook} className="ct-tool-runner__result" />
    </section>
  )
})
