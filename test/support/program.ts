// One TypeScript program over the package's entries and some files of a partner's app, with the
// package's names mapped to the sources: what a partner's editor would say of their code.
import { join, resolve } from 'node:path'
import ts from 'typescript'

export const root = resolve(__dirname, '../..')

export const ENTRIES = {
  '@cabinet/tools-react': 'src/entries/index.ts',
  '@cabinet/tools-react/client': 'src/entries/client.ts',
  '@cabinet/tools-react/mock': 'src/entries/mock.ts',
  '@cabinet/tools-react/server': 'src/entries/server.ts',
  '@cabinet/tools-react/server/cloudflare': 'src/entries/server/cloudflare.ts',
  '@cabinet/tools-react/locales/ru': 'src/entries/locales/ru.ts',
}

/** A program over the entries and `files` (path → source; a path absent from `virtual` is read from disk). */
export function partnerProgram(files: string[], virtual = new Map<string, string>()): ts.Program {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config as { compilerOptions: object }
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, root)
  const paths = Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, [join(root, file)]]))
  const host = ts.createCompilerHost({ ...options, paths, noEmit: true })
  const read = host.readFile
  host.readFile = (file) => virtual.get(file) ?? read(file)
  const exists = host.fileExists
  host.fileExists = (file) => virtual.has(file) || exists(file)
  const source = host.getSourceFile
  host.getSourceFile = (file, language, ...rest) =>
    virtual.has(file) ? ts.createSourceFile(file, virtual.get(file)!, language) : source(file, language, ...rest)
  const entries = Object.values(ENTRIES).map((file) => join(root, file))
  return ts.createProgram([...entries, ...files], { ...options, paths, noEmit: true }, host)
}

/** Every problem TypeScript finds in `file`, one line each (`line: message`). */
export function problemsIn(program: ts.Program, file: string): string {
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((problem) => `${problem.start === undefined ? '' : `${problem.file!.getLineAndCharacterOfPosition(problem.start).line + 1}: `}${ts.flattenDiagnosticMessageText(problem.messageText, '\n')}`)
    .join('\n')
}
