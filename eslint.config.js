// Which room may import which is one table, test/house/rooms.ts (denied by default, checked by
// `npm run lint` and test/unit/importCycles.test.ts). What stays here are the bans on packages:
// electron outside the desktop shell and its preload, Node in the shared contracts, I/O in the pure rooms, and a
// route importing another route.
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
const pure = (what, group = ['node:*', 'undici']) => ({
  group,
  message: `${what} is pure: no I/O.`,
})

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
  restrict(['src/**'], [electronOnly]),
  restrict(['src/main/index.ts', 'src/main/desktop/**', 'src/preload/**'], []),
  restrict(['src/shared/**'], [electronOnly, pure('src/shared')]),
  restrict(
    ['src/main/compiler/**'],
    [electronOnly, pure('The compiler', ['node:fs', 'node:net', 'node:http', 'undici'])],
  ),
  restrict(['src/main/verify/**'], [electronOnly, pure('Judging an answer')]),
  // A route is a leaf: what routes share lives in src/main/api/*.ts.
  restrict(
    ['src/main/api/routes/**'],
    [
      electronOnly,
      {
        group: ['./*', '../server', '../server.ts'],
        message: 'Routes never import routes or the server: share through src/main/api/*.ts.',
      },
    ],
  ),
)
