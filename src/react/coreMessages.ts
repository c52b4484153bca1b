import type { Messages, PartialMessages } from './messages.js'
import { TOOL_TEXTS } from '../tools/internal.js'

/** The strings of every component but `<RecentRuns>` and `<UsageMeter>` (`runs`, `usage`). */
export type CoreMessages = Omit<Messages, 'runs' | 'usage'>

/**
 * The English defaults of every string but those of the parts a runner never shows (`runs`,
 * `usage`): what the components load first. `en` is these with the rest.
 */
export const enCore: CoreMessages = {
  locale: 'en',
  phase: {
    submitting: 'Sending…',
    pending: 'Queued',
    running: 'In progress',
    succeeded: 'Done',
    failed: 'Failed',
  },
  errors: {
    retry: 'Try again',
    dismiss: 'Dismiss',
    requestId: (id) => `Request ID: ${id}`,
    serviceSaid: (detail) => `The service said: “${detail}”`,
    validation: {
      title: 'Check the input',
      body: 'Some fields need fixing:',
      action: 'Correct them and send again.',
      issue: (field, problem) => `${field}: ${problem}`,
    },
    'bad-request': {
      title: 'The request was not accepted',
      body: 'The service could not process it.',
      action: 'Check the input and try again.',
    },
    unauthorized: {
      title: 'The API key was not accepted',
      body: 'It is missing, mistyped or revoked.',
      action: 'The account owner can make a new one in the cabinet: AI tools → API → Keys.',
    },
    billing: {
      title: 'Not enough funds',
      body: 'The wallet has too little money, or the plan’s quota is used up.',
      action: 'Top up the wallet or change the plan, then try again.',
      link: 'Top up or change plan',
    },
    scope: {
      title: 'This key can’t use this tool',
      body: (scope) => `The API key lacks the ${scope ?? 'needed'} scope.`,
      action: 'The account owner can make a key with it in the cabinet: AI tools → API → Keys.',
    },
    'listing-access': {
      title: 'This listing belongs to another account',
      body: 'Tools only use the API key’s own listings and collections.',
      action: 'Choose one of your own.',
    },
    'not-found': {
      title: 'Not found',
      body: 'No such job or file for this API key.',
      action: 'Run the tool again.',
    },
    'rate-limit': {
      title: 'Too many requests',
      body: 'More than the service allows at once.',
      action: 'Wait a moment, then try again.',
      wait: (time) => `You can try again in ${time}.`,
      ready: 'You can try again now.',
    },
    server: {
      title: 'The service ran into a problem',
      body: 'The fault is on its side, not in your input.',
      action: 'Try again in a moment. If it persists, contact support.',
    },
    network: {
      title: 'No connection to the service',
      body: 'The request or its answer was lost.',
      action: 'Check your internet connection and try again.',
    },
    'job-failed': {
      title: 'The job failed',
      body: 'The service could not finish it.',
      action: 'Try again, or with another input or file.',
    },
    aborted: {
      title: 'Cancelled',
      body: 'The request was stopped.',
      action: 'Start it again when ready.',
    },
    timeout: {
      title: 'The job is taking long',
      body: 'It is still being worked on at the service, but this page stopped checking.',
      action: 'Check again to keep waiting for it.',
    },
    unexpected: {
      title: 'Something went wrong',
      body: 'An unexpected error occurred.',
      action: 'Try again, or reload the page.',
    },
  },
  proxy: {
    unauthorized: {
      title: 'Sign in to use this tool',
      body: 'You are signed out, or your session has ended.',
      action: 'Sign in again, then try again.',
    },
    toolNotAllowed: {
      title: 'This tool isn’t available to you',
      body: 'Your account on this site does not include it.',
      action: 'Ask the site’s administrator for access.',
    },
    userLimit: {
      title: 'You’ve reached your limit for now',
      body: 'Your account has used all the tool runs allowed for this period.',
      action: 'Try again later, or ask the site’s administrator for a higher limit.',
      again: (time) => `You can run tools again from ${time}.`,
    },
    uploadTooLarge: {
      title: 'The file is too large',
      body: 'This site takes smaller uploads.',
      action: 'Choose a smaller file and try again.',
    },
    crossSite: {
      title: 'This page can’t run the tool',
      body: 'The request came from another site, so this site refused it.',
      action: 'Open the tool on this site itself and try again.',
    },
  },
  validation: {
    required: 'This field is required.',
    'not-a-string': 'Enter text.',
    'not-a-number': 'Enter a number.',
    'not-positive': 'Enter a number greater than zero.',
    'not-a-file': 'Choose a file.',
    'listing-missing': 'Give a listing or collection ID.',
    'listing-both': 'Give a listing or collection ID, not both.',
    'not-an-object': 'Enter a JSON object of fields.',
    notJson: (line, column) => `This JSON does not parse: look at line ${line}, column ${column}.`,
    'unknown-tool': 'There is no such tool.',
    'sync-tool': 'This tool answers at once, with no job.',
    'foreign-url': 'This link is not on the service.',
    invalid: 'This value is not valid.',
  },
  // The catalogue's: a new tool has its English name and description from its row there.
  tools: TOOL_TEXTS,
  fields: {
    propertyCategory: 'Property type',
    totalArea: 'Total area, m²',
    city: 'City',
    mode: 'Enhancement mode',
    objectId: 'Listing ID',
    collectionId: 'Collection ID',
    language: 'Output language',
    file: 'File',
    listingHint: 'Fill in one of the two IDs, not both.',
    options: 'Options (JSON)',
    optionsHint: 'The tool’s fields as a JSON object, e.g. {"title": "Sunny flat"}.',
    optional: 'optional',
  },
  upload: {
    drop: 'Drag a file here, or choose one',
    dropActive: 'Drop the file to add it',
    choose: 'Choose a file',
    accepted: (types) => `Accepted: ${types}`,
    maxSize: (size) => `Up to ${size}`,
    rejected: {
      type: (name) => `“${name}” is not a type of file this tool accepts.`,
      size: (name, maxSize) => `“${name}” is larger than ${maxSize}.`,
      count: 'Choose one file only.',
    },
    progressLabel: 'Upload progress',
    uploading: (sent, total) => `Uploading ${sent} of ${total}`,
    restarted: 'The connection dropped, so the file is sent again from the start. It is not charged twice.',
    cancel: 'Cancel upload',
    remove: (name) => `Remove “${name}”`,
  },
  job: {
    checking: 'Checking the job…',
    elapsed: (time) => `Elapsed: ${time}`,
    progressLabel: 'Job progress',
    progress: (percent) => `${percent} complete`,
    announce: {
      pending: 'Job queued.',
      running: 'Job running.',
      succeeded: 'Job finished.',
      failed: 'Job failed.',
    },
    notFound: 'Job not found: it may belong to another API key.',
  },
  waiting: {
    'rate-limit': 'The service is busy: your request waits its turn.',
    offline: 'No connection: the request goes on when you are back online.',
    retrying: 'The service had a problem: trying again.',
    resumesIn: (time) => `Continuing in ${time}`,
    attempt: (count) => `Attempt ${count}`,
  },
  artifact: {
    loading: 'Loading the file…',
    failed: 'The file could not be loaded.',
    download: 'Download',
    openInNewTab: 'Open in a new tab',
    iframeTitle: 'Preview of the generated page',
    kinds: { image: 'Image', video: 'Video', pdf: 'PDF document', html: 'Web page', file: 'File' },
  },
  runner: {
    submit: 'Run',
    runAgain: 'Run again',
    result: 'Result',
    resultOf: (tool) => `${tool}: result`,
    artifacts: 'Files',
    needsFile: (name) => `The upload of “${name}” was interrupted. Choose the file again to finish it; it will not be paid twice.`,
  },
  disabled: {
    running: 'Running: wait for it to end.',
    noFile: 'Choose a file first.',
  },
  resultFields: {},
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
}

function mergeDeep(base: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...base }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue
    const current = merged[key]
    merged[key] = isPlainObject(current) && isPlainObject(value) ? mergeDeep(current, value) : value
  }
  return merged
}

/** `base` with `overrides` laid over it, group by group; neither is changed. */
export function mergeMessages<M extends CoreMessages>(base: M, overrides: PartialMessages | undefined): M {
  if (!overrides) return base
  return mergeDeep(base as unknown as Record<string, unknown>, overrides as Record<string, unknown>) as unknown as M
}
