// Import directions of docs/architecture.md "The pipeline and the rooms" are enforced here so a wrong arrow fails `npm run lint`.
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const restrict = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
})
const electronOnly = {
  group: ['electron'],
  message: 'Only src/main/index.ts and src/main/desktop import electron.',
}
/** Every room of src/main: a room that knows only src/shared bans them all. */
const MAIN_ROOMS = [
  'store',
  'vault',
  'recorder',
  'compiler',
  'intent',
  'router',
  'engine',
  'browse',
  'logins',
  'surface',
  'api',
  'app',
  'mcp',
  'desktop',
]
const up = (names) =>
  names.map((n) => ({
    group: [`**/${n}/*`, `**/${n}`],
    message: `Imports point down docs/architecture.md "The pipeline and the rooms": not ${n}.`,
  }))

const apart = (names) =>
  names.map((n) => ({
    group: [`**/${n}/*`, `**/${n}`],
    message: `Surfaces never import one another (docs/architecture.md): not ${n}; share through src/main/surface.`,
  }))

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['bin/**', '.ci/**', '*.config.js'], languageOptions: { globals: globals.node } },
  restrict(
    ['src/shared/**'],
    [
      electronOnly,
      ...up(['main', 'renderer', 'preload']),
      { group: ['node:*'], message: 'src/shared is pure: no Node.' },
    ],
  ),
  restrict(['src/renderer/**'], [electronOnly, ...up(['main', 'preload'])]),
  restrict(
    ['src/main/store/**'],
    [
      electronOnly,
      ...up(['vault', 'recorder', 'compiler', 'router', 'engine', 'browse', 'api', 'desktop']),
    ],
  ),
  restrict(
    ['src/main/compiler/**'],
    [
      electronOnly,
      ...up(['store', 'vault', 'recorder', 'router', 'engine', 'browse', 'api', 'desktop']),
      {
        group: ['node:fs', 'node:net', 'node:http', 'undici'],
        message: 'The compiler is pure: no I/O.',
      },
    ],
  ),
  // Judging an answer against a verify rule: below the compiler (which checks the rule it derives
  // on the recorded answer) and the engine (which checks it on every run), so it knows only shared.
  restrict(
    ['src/main/verify/**'],
    [
      electronOnly,
      ...up(MAIN_ROOMS),
      { group: ['node:*', 'undici'], message: 'Judging an answer is pure: no I/O.' },
    ],
  ),
  restrict(
    ['src/main/recorder/**', 'src/main/vault/**'],
    [electronOnly, ...up(['compiler', 'router', 'engine', 'browse', 'logins', 'api', 'desktop'])],
  ),
  // Saved logins and sign-in flows (issue 11 "Rooms"): over the vault, the recorder's browser and
  // the store; the surfaces, browse sessions and the core use them, never the other way round.
  restrict(
    ['src/main/logins/**'],
    [
      electronOnly,
      ...up(['compiler', 'router', 'engine', 'browse', 'api', 'app', 'mcp', 'desktop']),
    ],
  ),
  restrict(['src/main/router/**'], [electronOnly, ...up(['engine', 'browse', 'api', 'desktop'])]),
  restrict(
    ['src/main/engine/**'],
    [electronOnly, ...up(['browse', 'logins', 'api', 'desktop', 'router'])],
  ),
  restrict(
    ['src/main/browse/**', 'src/main/core.ts', 'src/main/cli.ts'],
    [electronOnly, ...up(['desktop'])],
  ),
  // The three surfaces stand side by side (issue 28): what they share lives in src/main/surface,
  // and where one serves another's routes the composition root (core.ts) wires it.
  restrict(['src/main/api/**'], [electronOnly, ...up(['desktop']), ...apart(['mcp', 'app'])]),
  restrict(['src/main/mcp/**'], [electronOnly, ...up(['desktop']), ...apart(['api', 'app'])]),
  restrict(['src/main/app/**'], [electronOnly, ...up(['desktop']), ...apart(['api', 'mcp'])]),
  // What the surfaces share sits below them: it never imports a surface.
  restrict(['src/main/surface/**'], [electronOnly, ...up(['desktop', 'api', 'mcp', 'app'])]),
  // The demo shop is a site like any other (issue 11 "Rooms"): it knows only src/shared.
  restrict(['src/main/demo/**'], [electronOnly, ...up(MAIN_ROOMS)]),
  // A route is a leaf: what routes share lives in src/main/api/*.ts (issue 11 "Rooms").
  restrict(
    ['src/main/api/routes/**'],
    [
      electronOnly,
      ...up(['desktop']),
      ...apart(['mcp', 'app']),
      {
        group: ['./*', '../server', '../server.ts'],
        message: 'Routes never import routes or the server: share through src/main/api/*.ts.',
      },
    ],
  ),
)
