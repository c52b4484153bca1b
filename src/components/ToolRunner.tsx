'use client'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import {
  getTool,
  inputFields,
  isToolsError,
  ToolsError,
  useTool,
  useToolsContext,
  type FileToolId,
  type InputFieldSpec,
  type Tool,
  type ToolId,
  type ToolInput,
  type ToolResult,
  type UseToolResult,
  type ValidationIssue,
} from '../react/index.js'
import { cx } from './classNames.js'
import { ErrorNotice } from './ErrorNotice.js'
import { FieldError } from './FieldError.js'
import { JobProgress } from './JobProgress.js'
import { ResultView } from './ResultView.js'
import { UploadForm } from './UploadForm.js'
import { useMessages } from './useMessages.js'

export interface ToolRunnerProps<T extends ToolId> {
  tool: T
  /** Values to prefill: named fields fill their inputs, any others the options field. */
  input?: Partial<ToolInput<T>>
  /** Called once per successful run. */
  onResult?: (result: ToolResult<T>) => void
  className?: string
}

const OPTIONS = 'options'

type Values = Record<string, string>

function initialValues(fields: InputFieldSpec[], input: Record<string, unknown>): { values: Values; options: string } {
  const values: Values = {}
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input)) {
    if (fields.some((field) => field.name === key)) {
      if (value !== undefined && !(value instanceof Blob)) values[key] = String(value)
    } else rest[key] = value
  }
  return { values, options: Object.keys(rest).length ? JSON.stringify(rest, null, 2) : '' }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The input the form holds, or the issue with its options text. */
function readForm(fields: InputFieldSpec[], values: Values, options: string) {
  let extra: Record<string, unknown> = {}
  if (options.trim()) {
    const parsed = parseJson(options)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { input: {}, optionsIssue: true }
    extra = parsed as Record<string, unknown>
  }
  const input: Record<string, unknown> = { ...extra }
  for (const field of fields) {
    const raw = values[field.name]?.trim() ?? ''
    if (field.type === 'file' || raw === '') continue
    input[field.name] = field.type === 'number' ? Number(raw) : raw
  }
  return { input, optionsIssue: false }
}

const isBusy = (phase: UseToolResult<ToolId>['phase']) => phase === 'submitting' || phase === 'pending' || phase === 'running'

/**
 * The whole flow of one tool: its fields (or a file drop), inline validation, submit, the job's
 * progress, the result with its files, errors in place with a way out, and "Run again".
 * Fields come from the catalogue: the spec's named fields, plus a JSON options field for tools
 * whose body fields the spec leaves open.
 *
 * Classes: `ct-tool-runner`, parts `__header`, `__title`, `__description`, `__form`, `__fields`,
 * `__status`, `__actions`. `data-state` is the run's phase.
 *
 * @example
 * <ToolRunner tool="valuation/rent" input={{ city: 'Kazan' }} />
 */
export function ToolRunner<T extends ToolId>({ tool, input, onResult, className }: ToolRunnerProps<T>) {
  const { client } = useToolsContext()
  const messages = useMessages()
  const hook = useTool(tool)
  const row: Tool = getTool(tool)
  const listing = 'listing' in row && row.listing
  const fields = inputFields(tool)
  const named = fields.filter((field) => field.type !== 'file')
  const isFileTool = row.body === 'multipart'
  const takesOptions = named.length === 0
  const baseId = useId()
  const idOf = (field: string) => `${baseId}-${field}`

  const [initial] = useState(() => initialValues(fields, (input ?? {}) as Record<string, unknown>))
  const [values, setValues] = useState<Values>(initial.values)
  const [options, setOptions] = useState(initial.options)
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const [localIssues, setLocalIssues] = useState<ValidationIssue[]>([])
  const notice = useRef<HTMLDivElement>(null)
  const resultRef = useRef<HTMLDivElement>(null)
  const formRef = useRef<HTMLFormElement>(null)

  const { phase, error, result, job } = hook
  const busy = isBusy(phase)
  const form = readForm(fields, values, options)

  // Inline validation: the client's own check, shown for the fields a person has left.
  const validate = async (visited: ReadonlySet<string>) => {
    const issues = form.optionsIssue ? [] : await client.validate(tool, { file: new Blob(), ...form.input } as never)
    const optionsIssue: ValidationIssue[] = form.optionsIssue
      ? [{ field: OPTIONS, code: 'not-an-object', message: messages.validation['not-an-object'] }]
      : []
    setLocalIssues([...issues, ...optionsIssue].filter((issue) => visited.has(issue.field)))
  }
  const leave = (field: string) => {
    const visited = new Set(touched).add(field)
    setTouched(visited)
    void validate(visited)
  }

  const shownError =
    isToolsError(error) && error.kind === 'validation'
      ? error
      : localIssues.length
        ? new ToolsError('validation', '', { issues: localIssues })
        : null

  // Focus follows the outcome: the result once it is there, the notice when something failed.
  const reported = useRef<unknown>(null)
  useEffect(() => {
    if (phase === 'succeeded' && result && reported.current !== result) {
      reported.current = result
      resultRef.current?.focus()
      onResult?.(result)
    } else if (phase === 'failed' && error && reported.current !== error) {
      reported.current = error
      notice.current?.focus()
    }
  }, [phase, result, error, onResult])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    setTouched(new Set([...fields.map((field) => field.name), OPTIONS]))
    if (form.optionsIssue) {
      setLocalIssues([{ field: OPTIONS, code: 'not-an-object', message: messages.validation['not-an-object'] }])
      return
    }
    setLocalIssues([])
    hook.run(form.input as ToolInput<T>)
  }

  const runAgain = () => {
    hook.reset()
    setLocalIssues([])
    formRef.current?.querySelector<HTMLElement>('input, textarea, [tabindex="0"]')?.focus()
  }

  const fieldControls = (
    <div className="ct-tool-runner__fields">
      {named.map((field) => {
        const errorId = `${idOf(field.name)}-error`
        const hintId = listing && !field.required ? `${baseId}-listing-hint` : undefined
        return (
          <div className="ct-field" key={field.name}>
            <label className="ct-label" htmlFor={idOf(field.name)}>
              {messages.fields[field.name]}
              {!field.required && <span className="ct-label__optional"> {messages.fields.optional}</span>}
            </label>
            <input
              id={idOf(field.name)}
              name={field.name}
              className="ct-input"
              type={field.type === 'number' ? 'number' : 'text'}
              step={field.type === 'number' ? 'any' : undefined}
              inputMode={field.type === 'number' ? 'decimal' : undefined}
              value={values[field.name] ?? ''}
              required={field.required}
              disabled={busy}
              aria-invalid={Boolean(shownError?.issues.some((issue) => issue.field === field.name))}
              aria-describedby={cx(errorId, hintId) || undefined}
              onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
              onBlur={() => leave(field.name)}
            />
            <FieldError error={shownError} field={field.name} id={errorId} />
          </div>
        )
      })}
      {listing && (
        <p className="ct-hint" id={`${baseId}-listing-hint`}>
          {messages.fields.listingHint}
        </p>
      )}
      {takesOptions && (
        <div className="ct-field">
          <label className="ct-label" htmlFor={idOf(OPTIONS)}>
            {messages.fields.options}
            <span className="ct-label__optional"> {messages.fields.optional}</span>
          </label>
          <textarea
            id={idOf(OPTIONS)}
            name={OPTIONS}
            className="ct-input ct-input--code"
            rows={3}
            spellCheck={false}
            value={options}
            disabled={busy}
            aria-invalid={Boolean(shownError?.issues.some((issue) => issue.field === OPTIONS))}
            aria-describedby={`${idOf(OPTIONS)}-hint ${idOf(OPTIONS)}-error`}
            onChange={(event) => setOptions(event.target.value)}
            onBlur={() => leave(OPTIONS)}
          />
          <p className="ct-hint" id={`${idOf(OPTIONS)}-hint`}>
            {messages.fields.optionsHint}
          </p>
          <FieldError error={shownError} field={OPTIONS} id={`${idOf(OPTIONS)}-error`} />
        </div>
      )}
    </div>
  )

  const finished = phase === 'succeeded' || phase === 'failed'
  // The upload form shows its own errors; the job's failure is told by its progress.
  const showNotice = error && !isFileTool && !(job && error.kind === 'job-failed')

  return (
    <section className={cx('ct-tool-runner', className)} data-state={phase} aria-labelledby={`${baseId}-title`}>
      <header className="ct-tool-runner__header">
        <h2 className="ct-tool-runner__title" id={`${baseId}-title`}>
          {messages.tools[tool].title}
        </h2>
        <p className="ct-tool-runner__description">{messages.tools[tool].description}</p>
      </header>

      {isFileTool ? (
        <UploadForm
          tool={tool as FileToolId}
          state={hook as unknown as UseToolResult<FileToolId>}
          options={form.input}
          submitLabel={messages.runner.submit}
          className="ct-tool-runner__form"
        >
          {named.length > 0 && fieldControls}
        </UploadForm>
      ) : (
        <form ref={formRef} className="ct-tool-runner__form" onSubmit={submit} noValidate>
          {fieldControls}
          <div className="ct-tool-runner__actions">
            <button type="submit" className="ct-button" disabled={busy}>
              {messages.runner.submit}
            </button>
          </div>
        </form>
      )}

      <div className="ct-tool-runner__status" role="status">
        {phase === 'submitting' && !isFileTool ? messages.phase.submitting : ''}
      </div>

      {showNotice && (
        <ErrorNotice ref={notice} error={error} onRetry={hook.retry} fieldId={(field) => idOf(field)} />
      )}
      {job && <JobProgress job={job} showArtifacts={false} onRetry={hook.retry} />}
      {result && (
        <div ref={resultRef} tabIndex={-1} className="ct-tool-runner__result">
          <ResultView result={result} />
        </div>
      )}
      {finished && (
        <div className="ct-tool-runner__actions">
          <button type="button" className="ct-button ct-button--secondary" onClick={runAgain}>
            {messages.runner.runAgain}
          </button>
        </div>
      )}
    </section>
  )
}
